/** Dollars on the wire (DESIGN §3): the one way both sides write an amount of the limits and messages. */
const wholeDollars = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

/** `$10`, `$10,000`, `$12.5`: an amount as SPEC §8's messages write it. */
export function dollars(amount: number): string {
  return `$${wholeDollars.format(amount)}`;
}

const twoDecimals = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** An amount shown to a person: $ and 2 decimals, the sign in front (SPEC §9): `$1,234.50`, `-$3.10`. */
export function formatMoney(amount: number): string {
  const rounded = Math.round(amount * 100) / 100;
  const text = `$${twoDecimals.format(Math.abs(rounded))}`;
  return rounded < 0 ? `-${text}` : text;
}

/**
 * A strict amount of dollars on the wire (issue 11): a JSON number, never a string, array or boolean
 * coerced, with at most two decimals.
 */
export function hasAtMostCents(amount: number): boolean {
  return Number.isFinite(amount) && Math.abs(Math.round(amount * 100) - amount * 100) < 1e-6;
}

/** `$0.000123`: an amount to the micro-dollar, for sums a request may cost. */
export function exactDollars(amount: number): string {
  const cents = Math.abs(amount) >= 0.01 && hasAtMostCents(amount);
  return `$${amount.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: cents ? 2 : 6 })}`;
}
