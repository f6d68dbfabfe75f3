import type { Kysely } from "kysely";
import { bigType } from "../dialect";

/**
 * Usage at scale, the daily layer (issue 15, decision 0092): per organization and UTC day, the sums of
 * `usage_hourly` for days whose every hour is rolled up, at four levels: per model × token × member (0), per
 * model (1), per token × member (2) and per day (3), the keys a level does not have being '' or 0. A report
 * reads the coarsest level its filters and breakdown allow (the key leads with the level, so each is one
 * range). `days_until` (a UTC midnight; NULL until the first daily roll-up) is how far each organization's
 * days are rolled, claimed like `rolled_until` (decision 0088).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const big = bigType(db);
  await db.schema
    .createTable("usage_daily")
    .addColumn("org_id", "integer", (c) => c.notNull())
    .addColumn("level", "integer", (c) => c.notNull())
    .addColumn("day", big, (c) => c.notNull())
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("token_key", "integer", (c) => c.notNull())
    .addColumn("user_key", "integer", (c) => c.notNull())
    .addColumn("requests", big, (c) => c.notNull())
    .addColumn("prompt_tokens", big, (c) => c.notNull())
    .addColumn("completion_tokens", big, (c) => c.notNull())
    .addColumn("reasoning_tokens", big, (c) => c.notNull())
    .addColumn("cost_micros", big, (c) => c.notNull())
    .addPrimaryKeyConstraint("usage_daily_pk", ["org_id", "level", "day", "model", "token_key", "user_key"])
    .execute();
  await db.schema.alterTable("usage_rollup_state").addColumn("days_until", big).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("usage_rollup_state").dropColumn("days_until").execute();
  await db.schema.dropTable("usage_daily").execute();
}
