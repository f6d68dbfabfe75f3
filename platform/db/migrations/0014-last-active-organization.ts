import type { Kysely } from "kysely";

/**
 * The organization a user last made active (decision 0098): a new session starts there, so signing in
 * again after a session ended resumes the organization the user was working in, not their oldest one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("last_active_org_id", "integer").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("last_active_org_id").execute();
}
