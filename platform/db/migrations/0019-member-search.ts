import type { Kysely } from "kysely";
import { sql } from "kysely";
import { foldForSearch, userSearchText } from "../../http/names";

/**
 * A user's name and email as /team's member search matches them, folded in JavaScript as the
 * organization names of 0018 are (decision 0132), and those names folded again: the fold now also
 * takes a final sigma and Turkish İ. Filled for the rows already there, a thousand per statement:
 * the ALTER holds the users table until the migration commits, and every signed-in request reads it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("search_text", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await refill(db, "users", "search_text", ["name", "email"], (row) => userSearchText(row as { name: string; email: string }));
  await refill(db, "organizations", "name_search", ["name"], (row) => foldForSearch(row.name));
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("search_text").execute();
}

const BATCH = 1000;

/** Sets `column` to `value(row)` on every row of `table`, by id, a batch per UPDATE. */
async function refill(db: Kysely<unknown>, table: string, column: string, read: string[], value: (row: Record<string, string>) => string): Promise<void> {
  let after = 0;
  for (;;) {
    const { rows } = await sql<Record<string, string> & { id: number }>`
      select id, ${sql.join(read.map((c) => sql.ref(c)))} from ${sql.table(table)} where id > ${after} order by id limit ${BATCH}`.execute(db);
    if (rows.length === 0) return;
    const cases = sql.join(
      rows.map((row) => sql`when ${Number(row.id)} then ${value(row)}`),
      sql` `,
    );
    const ids = sql.join(rows.map((row) => Number(row.id)));
    await sql`update ${sql.table(table)} set ${sql.ref(column)} = case id ${cases} end where id in (${ids})`.execute(db);
    after = Number(rows[rows.length - 1].id);
  }
}
