/** Dollars on the wire (DESIGN §3): the one way both sides write an amount of the limits and messages. */
const wholeDollars = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

/** `$10`, `$10,000`, `$12.5`: an amount as SPEC §8's messages write it. */
export function dollars(amount: number): string {
  return `$${wholeDollars.format(amount)}`;
}
