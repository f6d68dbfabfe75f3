/**
 * The billing service this module meters into (issue 4). Until that branch is merged, this narrow
 * adapter keeps exactly its signatures: every organization may spend and usage goes nowhere but the
 * chat receipts. Replace the bodies with a re-export of ../billing/service once it exists.
 */
import type { Deps } from "../context";

export async function canSpend(_deps: Deps, _orgId: number): Promise<boolean> {
  return true;
}

export async function recordUsage(
  _deps: Deps,
  _usage: { orgId: number; model: string; rateCardId: string | null; costMicros: number; description: string },
): Promise<void> {}
