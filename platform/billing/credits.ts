import type { GrantCredit } from "@contract/system";
import { creditDescription, grantCreditSchema } from "@contract/system";
import { fieldErrors, issueText } from "@contract/errors";
import type { Deps } from "../context";
import { PlatformError } from "../http/errors";
import { dollarsToMicros } from "./money";
import { record } from "../audit/record";

/**
 * A credit granted by the operator (trials, support, tests that need a balance without a card): the
 * ledger row "Credit: reason" and the balance rise in one transaction. The same rules hold from the
 * organization editor and the CLI, so the input is checked here too.
 */
export async function grantCredit(deps: Deps, orgId: number, amount: unknown, reason: unknown): Promise<GrantCredit> {
  const parsed = grantCreditSchema.safeParse({ amount, reason });
  if (!parsed.success) throw new PlatformError(400, issueText(parsed.error.issues), { fields: fieldErrors(parsed.error.issues) });
  const credit = parsed.data;
  const micros = dollarsToMicros(credit.amount);
  await deps.db.transaction().execute(async (trx) => {
    const now = deps.now();
    const raised = await trx
      .updateTable("billing_accounts")
      .set((eb) => ({ balance_micros: eb("balance_micros", "+", micros), updated_at: now }))
      .where("org_id", "=", orgId)
      .returning("org_id")
      .executeTakeFirst();
    if (!raised) throw new PlatformError(404, "Organization not found");
    await trx
      .insertInto("ledger_entries")
      .values({
        org_id: orgId,
        created_at: now,
        description: creditDescription(credit.reason),
        model: null,
        rate_card_id: null,
        change_micros: micros,
        payment_intent_id: null,
      })
      .execute();
    await record(deps, { orgId, action: "credit.granted", new: { amount: credit.amount, reason: credit.reason } }, trx);
  });
  return credit;
}
