import type { Kysely } from "kysely";

/** The usage report reads one organization's completions in a time window: index exactly that. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("chat_usage_org_created").on("chat_usage").columns(["org_id", "created_at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("chat_usage_org_created").execute();
}
