import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * Whether someone chatted in an organization (decision 0140): /usage filters by a member who has left,
 * as long as they have console usage there. Only console chats carry a user (an API call's `user_id` is
 * null), so the index leaves out the API calls, the bulk of a busy organization's rows and of its writes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("chat_usage_member").on("chat_usage").columns(["org_id", "user_id"]).where(sql.ref("user_id"), "is not", null).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("chat_usage_member").execute();
}
