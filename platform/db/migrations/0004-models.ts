import type { Kysely } from "kysely";
import { bigType, idType, primaryId } from "../dialect";

/** The models registry (DESIGN §5) and the per-completion usage record behind chat receipts. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const big = bigType(db);
  const id = idType(db);

  await db.schema
    .createTable("models")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("display_name", "text", (c) => c.notNull())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("context_size", "integer", (c) => c.notNull())
    .addColumn("base_url", "text")
    .addColumn("api_key", "text")
    .addColumn("upstream_model", "text", (c) => c.notNull())
    .addColumn("rate_card_id", "text")
    .addColumn("input_micros_per_million", big, (c) => c.notNull().defaultTo(0))
    .addColumn("output_micros_per_million", big, (c) => c.notNull().defaultTo(0))
    .addColumn("status_override", "text")
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", big, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("chat_usage")
    .addColumn("id", id, primaryId(db))
    .addColumn("receipt_id", "text", (c) => c.notNull().unique())
    .addColumn("org_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("user_id", "integer")
    .addColumn("token_id", "integer")
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("rate_card_id", "text")
    .addColumn("prompt_tokens", "integer", (c) => c.notNull())
    .addColumn("completion_tokens", "integer", (c) => c.notNull())
    .addColumn("reasoning_tokens", "integer", (c) => c.notNull())
    .addColumn("cost_micros", big, (c) => c.notNull())
    .addColumn("estimated", "integer", (c) => c.notNull())
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("created_at", big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("chat_usage_org").on("chat_usage").columns(["org_id", "id"]).execute();

  // A fresh install can chat at once: the built-in development model answers without an upstream.
  await db
    .insertInto("models" as never)
    .values({
      name: "builtin",
      display_name: "Built-in development model",
      provider: "builtin",
      context_size: 8192,
      base_url: null,
      api_key: null,
      upstream_model: "builtin",
      rate_card_id: null,
      input_micros_per_million: 0,
      output_micros_per_million: 0,
      status_override: null,
      position: 0,
      created_at: Date.now(),
    } as never)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("chat_usage").execute();
  await db.schema.dropTable("models").execute();
}
