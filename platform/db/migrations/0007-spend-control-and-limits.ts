import type { Kysely } from "kysely";
import { bigType, idType, primaryId } from "../dialect";

/**
 * Spend control (issue 11) and shared limits (issue 13): reservations held before a priced request is
 * forwarded, per-token budgets, allow-lists and request rates, the organization's monthly cap and daily
 * recharge limit, payment intents recorded before a charge, rate-limit counters and single-use OAuth states.
 * Everything that must hold across processes lives here, never in a process's memory.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const id = idType(db);
  const big = bigType(db);

  await db.schema
    .alterTable("billing_accounts")
    .addColumn("reserved_micros", big, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("billing_accounts").addColumn("monthly_cap_micros", big).execute();
  await db.schema.alterTable("billing_accounts").addColumn("month_key", "text").execute();
  await db.schema
    .alterTable("billing_accounts")
    .addColumn("month_spent_micros", big, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("billing_accounts")
    .addColumn("recharges_per_day", "integer", (c) => c.notNull().defaultTo(3))
    .execute();
  await db.schema.alterTable("billing_accounts").addColumn("recharge_refused_at", big).execute();
  await db.schema.alterTable("billing_accounts").addColumn("recharge_refused_reason", "text").execute();

  await db.schema.alterTable("api_tokens").addColumn("budget_micros", big).execute();
  await db.schema.alterTable("api_tokens").addColumn("budget_period", "text").execute();
  await db.schema
    .alterTable("api_tokens")
    .addColumn("spent_micros", big, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("api_tokens").addColumn("month_key", "text").execute();
  await db.schema
    .alterTable("api_tokens")
    .addColumn("month_spent_micros", big, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("api_tokens")
    .addColumn("reserved_micros", big, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("api_tokens").addColumn("allowed_models", "text").execute();
  await db.schema.alterTable("api_tokens").addColumn("rate_limit_rpm", "integer").execute();

  await db.schema.alterTable("models").addColumn("default_max_tokens", "integer").execute();

  await db.schema
    .createTable("spend_reservations")
    .addColumn("id", id, primaryId(db))
    .addColumn("org_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("token_id", "integer", (c) => c.references("api_tokens.id").onDelete("cascade"))
    .addColumn("receipt_id", "text", (c) => c.notNull().unique())
    .addColumn("amount_micros", big, (c) => c.notNull())
    .addColumn("created_at", big, (c) => c.notNull())
    .addColumn("expires_at", big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("spend_reservations_expires").on("spend_reservations").column("expires_at").execute();

  await db.schema
    .createTable("payment_intents")
    .addColumn("id", id, primaryId(db))
    .addColumn("org_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("amount_micros", big, (c) => c.notNull())
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("provider_intent_id", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", big, (c) => c.notNull())
    .addColumn("updated_at", big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("payment_intents_status").on("payment_intents").columns(["status", "created_at"]).execute();

  await db.schema
    .createTable("rate_limit_buckets")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("window_start", big, (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("expires_at", big, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("oauth_states")
    .addColumn("state_hash", "text", (c) => c.primaryKey())
    .addColumn("expires_at", big, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["oauth_states", "rate_limit_buckets", "payment_intents", "spend_reservations"]) await db.schema.dropTable(table).execute();
  await db.schema.alterTable("models").dropColumn("default_max_tokens").execute();
  for (const column of [
    "budget_micros",
    "budget_period",
    "spent_micros",
    "month_key",
    "month_spent_micros",
    "reserved_micros",
    "allowed_models",
    "rate_limit_rpm",
  ]) {
    await db.schema.alterTable("api_tokens").dropColumn(column).execute();
  }
  for (const column of [
    "reserved_micros",
    "monthly_cap_micros",
    "month_key",
    "month_spent_micros",
    "recharges_per_day",
    "recharge_refused_at",
    "recharge_refused_reason",
  ]) {
    await db.schema.alterTable("billing_accounts").dropColumn(column).execute();
  }
}
