import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * The two ledger sums a money event takes under the organization's billing row lock read only a
 * handful of rows, however many metered calls the organization made (decision 0133): the credits an
 * operator granted and reversed (no payment, no model: `reverseCredit`), and the rows of its payments
 * and their refunds (`applyReversal`). With only (org_id, id) to go on, each read every ledger row of
 * the organization, millions for a busy one, while usage debits waited on the lock.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("ledger_entries_granted")
    .on("ledger_entries")
    // Covering the sum (change_micros), so the rows themselves are not read.
    .columns(["org_id", "change_micros"])
    // One expression, the one the query states (`grantedCreditSum`): with "payment_intent_id IS NULL"
    // written out, SQLite's planner took the unique index on payment_intent_id for it, reading every
    // organization's metered calls (their rows have no payment either).
    .where(sql`coalesce(payment_intent_id, model)`, "is", null)
    .execute();
  await db.schema
    .createIndex("ledger_entries_payments")
    .on("ledger_entries")
    .columns(["org_id", "payment_intent_id", "change_micros"])
    .where(sql.ref("payment_intent_id"), "is not", null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("ledger_entries_payments").execute();
  await db.schema.dropIndex("ledger_entries_granted").execute();
}
