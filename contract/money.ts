/** Dollars on the wire (DESIGN §3): the one way both sides write an amount of the limits and messages. */
const wholeDollars = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

/** `$10`, `$10,000`, `$12.5`: an amount as SPEC §8's messages write it. */
export function dollars(amount: number): string {
  return `$${wholeDollars.format(amount)}`;
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
