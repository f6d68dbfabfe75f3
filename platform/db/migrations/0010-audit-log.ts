import type { Kysely } from "kysely";
import { sql } from "kysely";
import { bigType, idType, isPostgres, primaryId } from "../dialect";

/**
 * The audit log (issue 16, decision 0089): one row per admin action or security event. No foreign
 * keys, so no cascade ever rewrites it, and the actor's name and email are copied in as they were.
 * Triggers refuse UPDATE and DELETE in the database itself: append-only is not only the API's promise.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const big = bigType(db);
  await db.schema
    .createTable("audit_log")
    .addColumn("id", idType(db), primaryId(db))
    .addColumn("org_id", "integer")
    .addColumn("actor_id", "integer")
    .addColumn("actor_name", "text")
    .addColumn("actor_email", "text")
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("target", "text")
    .addColumn("old_value", "text")
    .addColumn("new_value", "text")
    .addColumn("address", "text")
    .addColumn("created_at", big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("audit_log_org").on("audit_log").columns(["org_id", "id"]).execute();

  if (isPostgres(db)) {
    await sql`create function audit_log_append_only() returns trigger language plpgsql as $$
      begin raise exception 'The audit log is append-only'; end $$`.execute(db);
    await sql`create trigger audit_log_append_only before update or delete on audit_log
      for each row execute function audit_log_append_only()`.execute(db);
  } else {
    for (const event of ["update", "delete"]) {
      await sql`${sql.raw(`create trigger audit_log_no_${event} before ${event} on audit_log
        begin select raise(abort, 'The audit log is append-only'); end`)}`.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("audit_log").execute();
  if (isPostgres(db)) await sql`drop function if exists audit_log_append_only()`.execute(db);
}
