/** Dollars on the wire (DESIGN §3): the one way both sides write an amount of the limits and messages. */
const wholeDollars = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

/** `$10`, `$10,000`, `$12.5`: an amount as SPEC §8's messages write it. */
export function dollars(amount: number): string {
  return `$${wholeDollars.format(amount)}`;
}

/**
 * The wire's dollars back to the integer micro-dollars they were made from (money is stored in
 * micro-dollars, DESIGN §3). Rounding starts from these, never from a binary fraction of a dollar:
 * 1.005 * 100 is 100.4999… in floating point, which rounds the wrong way (audit O4).
 */
function toMicros(amount: number): number {
  return Math.round(amount * 1_000_000);
}

/** Whole cents of an amount of micro-dollars, half away from zero, so a sign never changes the figure. */
function toCents(micros: number): number {
  const cents = Math.floor((Math.abs(micros) + 5_000) / 10_000);
  return micros < 0 ? -cents : cents;
}

const twoDecimals = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const upToMicros = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 6 });

/** The sign goes before the $: `-$2.00`, never `$-2.00`. */
function signed(negative: boolean, text: string): string {
  return `${negative ? "-" : ""}$${text}`;
}

/**
 * An amount shown to a person: $ and 2 decimals, the sign in front (SPEC §9): `$1,234.50`, `-$3.10`.
 * The one formatter of every screen (balance, ledger, tokens, spend cap, usage), so one amount reads
 * the same everywhere: $1.005 is `$1.01`, -$0.005 is `-$0.01`, and an amount that rounds to nothing is
 * `$0.00`, unsigned.
 */
export function formatMoney(amount: number): string {
  const cents = toCents(toMicros(amount));
  return signed(cents < 0, twoDecimals.format(Math.abs(cents) / 100));
}

/**
 * A strict amount of dollars on the wire (issue 11): a JSON number, never a string, array or boolean
 * coerced, with at most two decimals.
 */
export function hasAtMostCents(amount: number): boolean {
  if (!Number.isFinite(amount)) return false;
  // Far past any limit, where amount * 100 loses the fraction or overflows to Infinity (1e308: NaN, so
  // "at most 2 decimals" was said of an amount whose fault is its size): whole dollars are whole.
  if (Math.abs(amount) >= Number.MAX_SAFE_INTEGER / 100) return Number.isInteger(amount);
  return Math.abs(Math.round(amount * 100) - amount * 100) < 1e-6;
}

/** `$0.000123`, `$2.50`, `-$2.00`: an amount to the micro-dollar, for sums a request may cost. */
export function exactDollars(amount: number): string {
  const micros = Math.abs(toMicros(amount));
  const cents = micros >= 10_000 && micros % 10_000 === 0;
  return signed(amount < 0 && micros > 0, (cents ? twoDecimals : upToMicros).format(micros / 1_000_000));
}
