import type { Kysely } from "kysely";
import { bigType } from "../dialect";

/**
 * Usage at scale (issues 15 and 16, decision 0088): per organization, hour, model, token and member, the
 * sums of `chat_usage` for hours that are closed, rolled up lazily (never on the metered path), and how
 * far each organization has been rolled. `token_key`/`user_key` are 0 for none: a primary key can't hold NULL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const big = bigType(db);
  await db.schema
    .createTable("usage_hourly")
    .addColumn("org_id", "integer", (c) => c.notNull())
    .addColumn("hour", big, (c) => c.notNull())
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("token_key", "integer", (c) => c.notNull())
    .addColumn("user_key", "integer", (c) => c.notNull())
    .addColumn("requests", big, (c) => c.notNull())
    .addColumn("prompt_tokens", big, (c) => c.notNull())
    .addColumn("completion_tokens", big, (c) => c.notNull())
    .addColumn("reasoning_tokens", big, (c) => c.notNull())
    .addColumn("cost_micros", big, (c) => c.notNull())
    .addPrimaryKeyConstraint("usage_hourly_pk", ["org_id", "hour", "model", "token_key", "user_key"])
    .execute();
  await db.schema
    .createTable("usage_rollup_state")
    .addColumn("org_id", "integer", (c) => c.primaryKey())
    .addColumn("rolled_until", big, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("usage_rollup_state").execute();
  await db.schema.dropTable("usage_hourly").execute();
}
