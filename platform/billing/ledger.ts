import type { LedgerQuery, LedgerRow } from "@contract/billing";
import { LEDGER_MAX_PAGE, LEDGER_PAGE } from "@contract/billing";
import type { Deps } from "../context";
import type { DB } from "../db";
import type { LedgerEntriesTable } from "../db/schema";
import type { Selectable } from "kysely";
import { compiledOnce, compiledPerPageSize } from "../db/compiled";
import { ensureAccount } from "./accounts";
import { microsToDollars } from "./money";
import { record } from "../audit/record";

/** What a credited payment reads as in the ledger. */
export const CREDIT_DESCRIPTIONS = { add_funds: "Added funds", auto_recharge: "Auto-recharge" } as const;
export type CreditKind = keyof typeof CREDIT_DESCRIPTIONS;

/**
 * One page of the ledger, newest first. `before` pages to older rows, `after` to newer ones (keyset on
 * the `(org_id, id)` index, so a page costs the same with ten rows or a million).
 */
export async function getLedger(deps: Deps, orgId: number, page: LedgerQuery): Promise<LedgerRow[]> {
  const limit = Math.min(Math.max(page.limit ?? LEDGER_PAGE, 1), LEDGER_MAX_PAGE);
  // The first page is what /billing shows on every visit.
  if (page.before === undefined && page.after === undefined) return (await latestEntries(deps.db, limit, orgId)).map(toLedgerRow);
  let query = deps.db.selectFrom("ledger_entries").selectAll().where("org_id", "=", orgId);
  if (page.before !== undefined) query = query.where("id", "<", page.before);
  if (page.after !== undefined) query = query.where("id", ">", page.after);
  const rows =
    page.after !== undefined && page.before === undefined
      ? (await query.orderBy("id", "asc").limit(limit).execute()).reverse()
      : await query.orderBy("id", "desc").limit(limit).execute();
  return rows.map(toLedgerRow);
}

/** The first page's query (the one /billing shows), compiled once per page size. */
const latestEntries = compiledPerPageSize((db, limit, orgId: number) =>
  db.selectFrom("ledger_entries").selectAll().where("org_id", "=", orgId).orderBy("id", "desc").limit(limit),
);

function toLedgerRow(r: Selectable<LedgerEntriesTable>): LedgerRow {
  return {
    id: r.id,
    timestamp: new Date(r.created_at).toISOString(),
    description: r.description,
    model: r.model,
    rateCardId: r.rate_card_id,
    change: microsToDollars(r.change_micros),
  };
}

/**
 * Debits usage: one ledger row and the balance change in one transaction. Returns what an
 * auto-recharge decision needs of the account after it. `within` runs first in the same transaction
 * (the spend reservation's settlement and the usage row), so the cost is charged exactly once.
 */
export async function debitUsage(
  deps: Deps,
  usage: { orgId: number; model: string; rateCardId: string | null; costMicros: number; description: string; at?: number },
  within?: (trx: DB) => Promise<void>,
) {
  const cost = Math.max(0, Math.round(usage.costMicros));
  return deps.db.transaction().execute(async (trx) => {
    if (within) await within(trx);
    const now = deps.now();
    // A completion metered late is dated as its usage row and month counters are (`at`), so the ledger
    // and usage CSVs and the month's spend put it on the same day (audit O, O5). Pages go by id, not date.
    await insertUsageDebit(trx, usage.orgId, usage.at ?? now, usage.description, usage.model, usage.rateCardId, -cost);
    const [after] = await debitBalance(trx, cost, now, usage.orgId);
    if (!after) throw new Error(`No billing account for organization ${usage.orgId}`);
    return after;
  });
}

// Every metered completion runs these two: built once (decision 0087).
const insertUsageDebit = compiledOnce((db, orgId: number, createdAt: number, description: string, model: string, rateCardId: string | null, change: number) =>
  db.insertInto("ledger_entries").values({
    org_id: orgId,
    created_at: createdAt,
    description,
    model,
    rate_card_id: rateCardId,
    change_micros: change,
    payment_intent_id: null,
  }),
);
const debitBalance = compiledOnce((db, cost: number, updatedAt: number, orgId: number) =>
  db
    .updateTable("billing_accounts")
    .set((eb) => ({ balance_micros: eb("balance_micros", "-", cost), updated_at: updatedAt }))
    .where("org_id", "=", orgId)
    .returning(["balance_micros", "reserved_micros", "payment_mode", "auto_enabled", "auto_threshold_micros"]),
);

/**
 * Credits a payment: the ledger row (unique on the payment intent) and the balance in one transaction.
 * Returns false when this payment was already credited (webhook and synchronous answer both arriving).
 */
export async function creditPayment(
  deps: Deps,
  payment: { orgId: number; paymentIntentId: string; amountMicros: number; description: string },
  trx?: DB,
  /**
   * Credited away from the request that asked (the provider's webhook, reconciliation): the person who
   * asked (null: nobody, a recharge). No address is recorded: the request's, if any, is not theirs.
   */
  askedBy?: { userId: number | null },
): Promise<boolean> {
  const run = async (db: DB) => {
    const inserted = await db
      .insertInto("ledger_entries")
      .values({
        org_id: payment.orgId,
        created_at: deps.now(),
        description: payment.description,
        model: null,
        rate_card_id: null,
        change_micros: payment.amountMicros,
        payment_intent_id: payment.paymentIntentId,
      })
      .onConflict((oc) => oc.column("payment_intent_id").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!inserted) return false;
    await db
      .updateTable("billing_accounts")
      .set((eb) => ({ balance_micros: eb("balance_micros", "+", payment.amountMicros), updated_at: deps.now() }))
      .where("org_id", "=", payment.orgId)
      .execute();
    const by = askedBy ? { viaProvider: true, ...(askedBy.userId !== null ? { actorId: askedBy.userId } : {}) } : {};
    await record(
      deps,
      { orgId: payment.orgId, action: "funds.added", new: { amount: microsToDollars(payment.amountMicros), description: payment.description }, ...by },
      db,
    );
    return true;
  };
  // Money received is never dropped for want of a row, whatever made the organization.
  await ensureAccount(trx ?? deps.db, payment.orgId, deps.now());
  return trx ? run(trx) : deps.db.transaction().execute((t) => run(t));
}
