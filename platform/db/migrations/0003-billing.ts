import type { Kysely } from "kysely";
import { sql } from "kysely";
import { bigType, idType, primaryId } from "../dialect";

/** Billing: one account row per organization (balance, mode, Stripe ids) and the ledger. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const id = idType(db);
  const big = bigType(db);

  await db.schema
    .createTable("billing_accounts")
    .addColumn("org_id", "integer", (c) => c.primaryKey().references("organizations.id").onDelete("cascade"))
    .addColumn("balance_micros", big, (c) => c.notNull().defaultTo(0))
    .addColumn("payment_mode", "text", (c) => c.notNull().defaultTo("manual"))
    .addColumn("auto_enabled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("auto_threshold_micros", big)
    .addColumn("auto_recharge_micros", big)
    .addColumn("recharge_claimed_at", big)
    .addColumn("stripe_customer_id", "text")
    .addColumn("payment_method_id", "text")
    .addColumn("payment_method_brand", "text")
    .addColumn("payment_method_last4", "text")
    .addColumn("updated_at", big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("billing_accounts_customer").on("billing_accounts").column("stripe_customer_id").execute();

  await db.schema
    .createTable("ledger_entries")
    .addColumn("id", id, primaryId(db))
    .addColumn("org_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("created_at", big, (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("model", "text")
    .addColumn("rate_card_id", "text")
    .addColumn("change_micros", big, (c) => c.notNull())
    // A payment credits the ledger once, whether the webhook or the synchronous answer arrives first.
    .addColumn("payment_intent_id", "text", (c) => c.unique())
    .execute();
  // Keyset pages (`where org_id = ? and id < ? order by id desc limit n`) walk this index only.
  await db.schema.createIndex("ledger_entries_org_id").on("ledger_entries").columns(["org_id", "id"]).execute();

  await db.schema
    .createTable("stripe_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("received_at", big, (c) => c.notNull())
    .execute();

  // Existing organizations get their account now; new ones get it on first use.
  await sql`insert into billing_accounts (org_id, updated_at) select id, ${Date.now()} from organizations`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["stripe_events", "ledger_entries", "billing_accounts"]) {
    await db.schema.dropTable(table).execute();
  }
}
