import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * Every organization has its billing account row from its creation on (createOrganization makes it
 * in the same transaction), so reads never insert. This gives one to the organizations made before,
 * the system organization included.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into billing_accounts (org_id, updated_at)
    select o.id, o.created_at from organizations o
    where not exists (select 1 from billing_accounts b where b.org_id = o.id)
  `.execute(db);
}

export async function down(): Promise<void> {
  // The rows are indistinguishable from ones made with their organization: nothing to undo.
}
