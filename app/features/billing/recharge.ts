import { RECHARGE_PAUSED } from "@contract/billing";
import { exactDollars } from "@contract/money";

export { rechargeLimitText } from "@contract/billing";

/** The banner of a refused automatic recharge: why, and what the organization can do now. */
export function rechargePausedText(reason: string): string {
  return `${RECHARGE_PAUSED}: ${reason}. Add funds to top up now; automatic recharges resume 24 hours after the first of today's, or at the next successful charge.`;
}

/** The banner of an automatic recharge that did not go through, until a payment succeeds after it. */
export function rechargeDeclinedText(amount: number): string {
  return `The automatic recharge of ${exactDollars(amount)} did not go through: the card was declined, or the payment was not confirmed. Update the payment method or add funds; while the balance is under the threshold, recharges are tried again, up to the daily limit.`;
}
