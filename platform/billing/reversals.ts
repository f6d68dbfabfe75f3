import { sql } from "kysely";
import type { Deps } from "../context";
import type { DB } from "../db";
import type { PaymentEvent } from "../providers/stripe";
import { record } from "../audit/record";
import { centsToMicros, microsToDollars } from "./money";

export type Reversal = Extract<PaymentEvent, { kind: "refunded" | "dispute_withdrawn" | "dispute_reinstated" }>;

/** What a reversal reads as in the ledger. */
export const REVERSAL_DESCRIPTIONS = { refunded: "Refund", dispute_withdrawn: "Chargeback", dispute_reinstated: "Chargeback reversed" } as const;

/**
 * Takes a refund or a chargeback out of the balance of the organization that the payment credited (or
 * gives a won chargeback back), inside the webhook's transaction. Without it, money refunded in
 * Stripe's dashboard or charged back stayed spendable. Each ledger row is unique on its Stripe source,
 * in the column that makes a credit unique on its payment intent: a refund on its charge and the
 * refunded total it brings the charge to (Stripe sends the total), a chargeback on its dispute. A
 * payment this platform never credited is not its business.
 */
/** What the refunds of one charge (rows keyed `prefix…`) took so far: read through the index of payment rows (0020). */
export const refundedSum = (db: DB, orgId: number, prefix: string) =>
  db
    .selectFrom("ledger_entries")
    .select((eb) => eb.fn.sum<number>("change_micros").as("sum"))
    .where("org_id", "=", orgId)
    // Said outright: the index holds only rows with a payment, and the planner can't see that the prefix match implies one.
    .where("payment_intent_id", "is not", null)
    .where(sql<string>`substr(payment_intent_id, 1, ${prefix.length})`, "=", prefix);

export async function applyReversal(deps: Deps, reversal: Reversal, trx: DB): Promise<void> {
  if (!reversal.paymentIntentId) return;
  const credit = await trx.selectFrom("ledger_entries").select("org_id").where("payment_intent_id", "=", reversal.paymentIntentId).executeTakeFirst();
  if (!credit) return;
  const orgId = credit.org_id;
  // The account's row is locked first: two refunds of one charge handled at once would each count
  // only what was refunded before both.
  await trx
    .updateTable("billing_accounts")
    .set((eb) => ({ updated_at: eb.ref("updated_at") }))
    .where("org_id", "=", orgId)
    .execute();

  let change: number;
  let key: string;
  if (reversal.kind === "refunded") {
    const prefix = `${reversal.sourceId}:refunded:`;
    const before = await refundedSum(trx, orgId, prefix).executeTakeFirst();
    change = -(centsToMicros(reversal.amountCents) + Number(before?.sum ?? 0));
    key = `${prefix}${reversal.amountCents}`;
  } else {
    change = (reversal.kind === "dispute_withdrawn" ? -1 : 1) * centsToMicros(reversal.amountCents);
    key = `${reversal.sourceId}:${reversal.kind}`;
  }
  // An older refund event after a newer one: its total is already taken.
  if (reversal.kind === "refunded" && change >= 0) return;

  const description = REVERSAL_DESCRIPTIONS[reversal.kind];
  const now = deps.now();
  const inserted = await trx
    .insertInto("ledger_entries")
    .values({ org_id: orgId, created_at: now, description, model: null, rate_card_id: null, change_micros: change, payment_intent_id: key })
    .onConflict((oc) => oc.column("payment_intent_id").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!inserted) return;
  await trx
    .updateTable("billing_accounts")
    .set((eb) => ({ balance_micros: eb("balance_micros", "+", change), updated_at: now }))
    .where("org_id", "=", orgId)
    .execute();
  await record(
    deps,
    {
      orgId,
      action: change < 0 ? "funds.reversed" : "funds.added",
      target: reversal.paymentIntentId,
      new: { amount: microsToDollars(change), description },
    },
    trx,
  );
}
