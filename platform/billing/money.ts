/** Money is integer micro-dollars in the database and dollars (numbers) on the wire (DESIGN §3). */
export const MICROS_PER_DOLLAR = 1_000_000;
export const MICROS_PER_CENT = 10_000;

export function dollarsToMicros(dollars: number): number {
  return Math.round(dollars * MICROS_PER_DOLLAR);
}

export function microsToDollars(micros: number): number {
  return Number(micros) / MICROS_PER_DOLLAR;
}

/** Stripe charges whole cents. */
export function microsToCents(micros: number): number {
  return Math.round(micros / MICROS_PER_CENT);
}

export function centsToMicros(cents: number): number {
  return Math.round(cents) * MICROS_PER_CENT;
}
