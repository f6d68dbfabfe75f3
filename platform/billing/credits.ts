import type { GrantCredit } from "@contract/system";
import { creditDescription, grantCreditSchema } from "@contract/system";
import { fieldErrors, issueText } from "@contract/errors";
import type { Deps } from "../context";
import type { DB } from "../db";
import { sql } from "kysely";
import { PlatformError } from "../http/errors";
import { exactDollars } from "@contract/money";
import { dollarsToMicros, microsToDollars } from "./money";
import { record } from "../audit/record";
import { bySystemAdmin } from "../orgs/admin-lock";

/** What the ledger says of a reversed credit: the organization sees it beside the credit it takes back. */
export const creditReversalDescription = (reason: string) => `Credit reversed: ${reason}`;

/**
 * A credit granted by the operator (trials, support, tests that need a balance without a card): the
 * ledger row "Credit: reason" and the balance rise in one transaction. The same rules hold from the
 * organization editor and the CLI, so the input is checked here too. From the editor, `actorId` is its
 * caller, checked in the transaction to still be a system admin.
 */
export async function grantCredit(deps: Deps, orgId: number, amount: unknown, reason: unknown, actorId?: number): Promise<GrantCredit> {
  const parsed = grantCreditSchema.safeParse({ amount, reason });
  if (!parsed.success) throw new PlatformError(400, issueText(parsed.error.issues), { fields: fieldErrors(parsed.error.issues) });
  const credit = parsed.data;
  const micros = dollarsToMicros(credit.amount);
  await bySystemAdmin(deps, actorId, async (trx) => {
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

export interface CreditReversal extends GrantCredit {
  /** The balance after it, in dollars. */
  balance: number;
}

/**
 * Takes back granted credit (the operator's `reverse-credit` and the organization editor: a credit given by mistake, or twice): a
 * ledger row "Credit reversed: reason" of minus the amount, and the balance, in one transaction, under
 * the credit's own limits. It takes back credit only, never paid funds (Stripe's refunds do that,
 * platform/billing/reversals.ts): at most what the operator granted and has not reversed yet. And never
 * more than the balance, as it can't take back credit already spent, nor the part of it running requests
 * hold, which their charges will spend; except in invoice mode, where a balance below zero is what the
 * organization owes and the reversal adds to its bill. `actorId` as for `grantCredit`.
 */
/** What the operator granted the organization and has not reversed: read through its own index (0020). */
export const grantedCreditSum = (db: DB, orgId: number) =>
  db
    .selectFrom("ledger_entries")
    .select((eb) => eb.fn.sum<number | string | null>("change_micros").as("sum"))
    .where("org_id", "=", orgId)
    // Neither a payment nor a model, said as the index says it (migration 0020).
    .where(sql`coalesce(payment_intent_id, model)`, "is", null);

export async function reverseCredit(deps: Deps, orgId: number, amount: unknown, reason: unknown, actorId?: number): Promise<CreditReversal> {
  const parsed = grantCreditSchema.safeParse({ amount, reason });
  if (!parsed.success) throw new PlatformError(400, issueText(parsed.error.issues), { fields: fieldErrors(parsed.error.issues) });
  const credit = parsed.data;
  const micros = dollarsToMicros(credit.amount);
  return bySystemAdmin(deps, actorId, async (trx) => {
    const now = deps.now();
    // The account's row is locked first: usage debits and another reversal wait, so the checks below hold.
    const account = await trx
      .updateTable("billing_accounts")
      .set((eb) => ({ updated_at: eb.ref("updated_at") }))
      .where("org_id", "=", orgId)
      .returning(["balance_micros", "reserved_micros", "payment_mode"])
      .executeTakeFirst();
    if (!account) throw new PlatformError(404, "Organization not found");
    // Granted credits and their reversals are the ledger's only rows with neither a payment nor a model.
    const granted = await grantedCreditSum(trx, orgId).executeTakeFirst();
    const left = Number(granted?.sum ?? 0);
    // Each refusal is about the amount: `fields` lets the organization editor show it beside that field.
    const refuse = (message: string) => new PlatformError(409, message, { fields: { amount: message } });
    if (micros > left) {
      throw refuse(left > 0 ? `Only ${exactDollars(microsToDollars(left))} of granted credit is left to reverse` : "No granted credit is left to reverse");
    }
    const balance = Number(account.balance_micros);
    const held = Number(account.reserved_micros);
    if (account.payment_mode !== "invoice" && micros > balance) {
      throw refuse(`The balance is ${exactDollars(microsToDollars(balance))}: a reversal can't take it below $0 (credit already spent stays spent)`);
    }
    // Running requests hold part of the balance and will be charged from it when they end: taking that
    // part back too would leave their charges below $0 (audit O, O7).
    if (account.payment_mode !== "invoice" && micros > balance - held) {
      throw refuse(
        `The balance is ${exactDollars(microsToDollars(balance))}, of which running requests hold ${exactDollars(microsToDollars(held))}: a reversal can take at most ${exactDollars(microsToDollars(Math.max(0, balance - held)))} now, or their charges could take the balance below $0`,
      );
    }
    await trx
      .insertInto("ledger_entries")
      .values({
        org_id: orgId,
        created_at: now,
        description: creditReversalDescription(credit.reason),
        model: null,
        rate_card_id: null,
        change_micros: -micros,
        payment_intent_id: null,
      })
      .execute();
    const after = await trx
      .updateTable("billing_accounts")
      .set((eb) => ({ balance_micros: eb("balance_micros", "-", micros), updated_at: now }))
      .where("org_id", "=", orgId)
      .returning("balance_micros")
      .executeTakeFirstOrThrow();
    await record(deps, { orgId, action: "credit.reversed", new: { amount: -credit.amount, reason: credit.reason } }, trx);
    return { ...credit, balance: microsToDollars(Number(after.balance_micros)) };
  });
}
