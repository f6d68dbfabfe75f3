import type { Kysely } from "kysely";
import { sql } from "kysely";
import { bigType } from "../dialect";

/**
 * Invite management (issue 14, decision 0090): an optional expiry and maximum number of uses chosen at
 * creation, and revocation. A single-use code is a code with at most one use, so the one claim rule
 * (`use_count < max_uses`) covers both kinds: existing single-use codes get `max_uses = 1`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const big = bigType(db);
  await db.schema.alterTable("invites").addColumn("expires_at", big).execute();
  await db.schema.alterTable("invites").addColumn("max_uses", "integer").execute();
  await db.schema.alterTable("invites").addColumn("revoked_at", big).execute();
  await sql`update invites set max_uses = 1 where kind = 'single-use'`.execute(db);
  await db.schema.createIndex("invites_org").on("invites").columns(["org_id", "created_at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("invites_org").execute();
  for (const column of ["expires_at", "max_uses", "revoked_at"]) await db.schema.alterTable("invites").dropColumn(column).execute();
}
