import { RECHARGE_PAUSED } from "@contract/billing";

export { rechargeLimitText } from "@contract/billing";

/** The banner of a refused automatic recharge: why, and what the organization can do now. */
export function rechargePausedText(reason: string): string {
  return `${RECHARGE_PAUSED}: ${reason}. Add funds to top up now; automatic recharges resume 24 hours after the first of today's, or at the next successful charge.`;
}
