import type { Kysely } from "kysely";
import { bigType, idType, primaryId } from "../dialect";

/** Buckets of the time-to-first-token histogram kept per row (see platform/models/metrics.ts). */
const TTFT_BUCKETS = 14;

/**
 * Model reliability (issue 17): per model, organization and minute, the counters of the requests the
 * platform forwarded (added to by every process with one upsert per key per flush), each model's status
 * changes, and the operator's alert thresholds and publication choice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const big = bigType(db);
  let stats = db.schema
    .createTable("model_minute_stats")
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("org_id", "integer", (c) => c.notNull())
    .addColumn("minute", big, (c) => c.notNull());
  for (const column of [
    "requests",
    "successes",
    "upstream_errors",
    "rate_limited",
    "unavailable",
    "aborted",
    "ttft_count",
    "ttft_sum_ms",
    "output_tokens",
    "generation_ms",
    "duration_ms",
  ]) {
    stats = stats.addColumn(column, big, (c) => c.notNull().defaultTo(0));
  }
  for (let i = 0; i < TTFT_BUCKETS; i++) stats = stats.addColumn(`ttft_b${i}`, "integer", (c) => c.notNull().defaultTo(0));
  await stats.addPrimaryKeyConstraint("model_minute_stats_pk", ["model", "org_id", "minute"]).execute();
  await db.schema.createIndex("model_minute_stats_minute").on("model_minute_stats").columns(["minute", "model"]).execute();

  await db.schema
    .createTable("model_status_history")
    .addColumn("id", idType(db), primaryId(db))
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("at", big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("model_status_history_model_at").on("model_status_history").columns(["model", "at"]).execute();

  await db.schema.alterTable("models").addColumn("alert_error_rate_pct", "integer").execute();
  await db.schema.alterTable("models").addColumn("alert_ttft_ms", "integer").execute();
  await db.schema
    .alterTable("models")
    .addColumn("publish_metrics", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ["alert_error_rate_pct", "alert_ttft_ms", "publish_metrics"]) await db.schema.alterTable("models").dropColumn(column).execute();
  await db.schema.dropTable("model_status_history").execute();
  await db.schema.dropTable("model_minute_stats").execute();
}
