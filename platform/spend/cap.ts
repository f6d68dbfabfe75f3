import type { SpendCapInput, SpendCapState } from "@contract/billing";
import type { Deps } from "../context";
import { compiledOnce } from "../db/compiled";
import { PlatformError } from "../http/errors";
import { dollarsToMicros, microsToDollars } from "../billing/money";
import { monthKey } from "./reservations";
import { recordChange } from "../audit/record";
import { lockedByAdmin } from "../orgs/admin-lock";

/** GET /billing/spend-cap: the organization's monthly cap, what this UTC month has spent, what is held. */
const capOf = compiledOnce((db, orgId: number) =>
  db.selectFrom("billing_accounts").select(["monthly_cap_micros", "month_key", "month_spent_micros", "reserved_micros"]).where("org_id", "=", orgId),
);

export async function getSpendCap(deps: Deps, orgId: number): Promise<SpendCapState> {
  const [a] = await capOf(deps.db, orgId);
  if (!a) throw new PlatformError(404, "Organization not found");
  return {
    monthlyCap: a.monthly_cap_micros === null ? null : microsToDollars(a.monthly_cap_micros),
    spentThisMonth: microsToDollars(a.month_key === monthKey(deps.now()) ? a.month_spent_micros : 0),
    reserved: microsToDollars(a.reserved_micros),
  };
}

/**
 * POST /billing/spend-cap (admins, checked again in the transaction): null removes the cap. A lower cap
 * refuses new requests, never running ones.
 */
export async function setSpendCap(deps: Deps, orgId: number, actorId: number, input: SpendCapInput): Promise<SpendCapState> {
  const monthlyCap = input.monthlyCap === null ? null : dollarsToMicros(input.monthlyCap);
  // The change and its audit entry in one transaction.
  await lockedByAdmin(deps, orgId, actorId, async (trx) => {
    const before = await getSpendCap({ ...deps, db: trx }, orgId);
    await trx.updateTable("billing_accounts").set({ monthly_cap_micros: monthlyCap, updated_at: deps.now() }).where("org_id", "=", orgId).execute();
    await recordChange(
      deps,
      {
        orgId,
        action: "spend_cap.changed",
        old: { monthlyCap: before.monthlyCap },
        new: { monthlyCap: monthlyCap === null ? null : microsToDollars(monthlyCap) },
      },
      trx,
    );
  });
  return getSpendCap(deps, orgId);
}
