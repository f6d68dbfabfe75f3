import type { ColumnDataType, ColumnDefinitionBuilder, Kysely } from "kysely";
import { sql } from "kysely";

/** The two databases the platform runs on differ in a few column types; migrations ask here. */
export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter.constructor.name.startsWith("Postgres");
}

export function idType(db: Kysely<unknown>): ColumnDataType {
  return isPostgres(db) ? "serial" : "integer";
}

/** An auto-numbered primary key: `serial` numbers itself on Postgres, SQLite needs AUTOINCREMENT. */
export function primaryId(db: Kysely<unknown>) {
  return (c: ColumnDefinitionBuilder) => (isPostgres(db) ? c.primaryKey() : c.primaryKey().autoIncrement());
}

/** Epoch milliseconds and micro-dollars outgrow 32 bits. */
export function bigType(db: Kysely<unknown>): ColumnDataType {
  return isPostgres(db) ? "bigint" : "integer";
}

/** After inserting explicit ids on Postgres, move the sequence past them. */
export async function syncSequence(db: Kysely<unknown>, table: string): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.table(table)}))`.execute(db);
}
