import type { Kysely } from "kysely";

/**
 * Whether the sign-in provider had proved the actor's email when the entry was written (decision 0142):
 * two accounts may show one address, and the log named an unproved one as if it were the person's. 1 or
 * 0 as the user's `email_verified` was; null where no user acted (an operator command, the platform) and
 * in entries written before this column, which the log then marks neither way.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("audit_log").addColumn("actor_email_verified", "integer").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("audit_log").dropColumn("actor_email_verified").execute();
}
