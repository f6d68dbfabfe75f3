import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, sql, SqliteAdapter, SqliteDialect } from "kysely";
import type { Migration, MigrationProvider, SqliteDatabase } from "kysely";
import type { Database } from "./schema";
import { InlineLimits } from "./inline-limits";
import { checkpointInBackground } from "./wal-checkpointer";
import { databaseUrl, postgresHost } from "./target";
import { POSTGRES_LIMITS, postgresPool } from "./postgres-pool";
import type { PostgresLimits } from "./postgres-pool";
import * as m0001 from "./migrations/0001-foundation";
import * as m0002 from "./migrations/0002-tokens";
import * as m0003 from "./migrations/0003-billing";
import * as m0004 from "./migrations/0004-models";
import * as m0005 from "./migrations/0005-usage";
import * as m0006 from "./migrations/0006-billing-accounts";
import * as m0007 from "./migrations/0007-spend-control-and-limits";
import * as m0008 from "./migrations/0008-model-metrics";
import * as m0009 from "./migrations/0009-usage-rollups";
import * as m0010 from "./migrations/0010-audit-log";
import * as m0011 from "./migrations/0011-token-rotation";
import * as m0012 from "./migrations/0012-invite-management";
import * as m0013 from "./migrations/0013-usage-daily";
import * as m0014 from "./migrations/0014-last-active-organization";
import * as m0015 from "./migrations/0015-models-file-applied";
import * as m0016 from "./migrations/0016-reservation-progress";
import * as m0017 from "./migrations/0017-removed-payment-method";
import * as m0018 from "./migrations/0018-organization-search-name";
import * as m0019 from "./migrations/0019-member-search";
import * as m0020 from "./migrations/0020-ledger-credit-indexes";
import * as m0021 from "./migrations/0021-payment-intent-requester";
import * as m0022 from "./migrations/0022-usage-member-index";
import * as m0023 from "./migrations/0023-audit-actor-email-verified";

export type DB = Kysely<Database>;

/** Migrations are listed here (not read from disk) so bundlers and tsx agree on what runs. */
export const migrations: Record<string, Migration> = {
  "0001-foundation": m0001,
  "0002-tokens": m0002,
  "0003-billing": m0003,
  "0004-models": m0004,
  "0005-usage": m0005,
  "0006-billing-accounts": m0006,
  "0007-spend-control-and-limits": m0007,
  "0008-model-metrics": m0008,
  "0009-usage-rollups": m0009,
  "0010-audit-log": m0010,
  "0011-token-rotation": m0011,
  "0012-invite-management": m0012,
  "0013-usage-daily": m0013,
  "0014-last-active-organization": m0014,
  "0015-models-file-applied": m0015,
  "0016-reservation-progress": m0016,
  "0017-removed-payment-method": m0017,
  "0018-organization-search-name": m0018,
  "0019-member-search": m0019,
  "0020-ledger-credit-indexes": m0020,
  "0021-payment-intent-requester": m0021,
  "0022-usage-member-index": m0022,
  "0023-audit-actor-email-verified": m0023,
};

export interface DatabaseOptions {
  /** postgres://… selects PostgreSQL (any other URL is refused); otherwise `path` is a SQLite file (":memory:" for tests). */
  url?: string;
  path?: string;
  /** SQLite file only: checkpoint the log from a worker thread (the server's database; wal-checkpointer.ts). */
  checkpointInBackground?: boolean;
  /** PostgreSQL only: how long a request waits for the database (null: as long as it takes, for migrations). */
  postgresLimits?: PostgresLimits | null;
}

export function openDatabase(options: DatabaseOptions): DB {
  // A URL that is not PostgreSQL's must not fall through to a SQLite file nobody asked for.
  if (options.url) {
    const url = databaseUrl.safeParse(options.url);
    if (!url.success) throw new Error(`DATABASE_URL: ${url.error.issues[0].message}`);
    const pool = postgresPool(options.url, options.postgresLimits === undefined ? POSTGRES_LIMITS : options.postgresLimits);
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const file = options.path ?? "data/console.db";
  // The database holds the upstream models' API keys: a folder and a file this makes are the server
  // user's alone (SQLite gives its -wal and -shm files the database's permissions).
  const fresh = file !== ":memory:" && !fs.existsSync(file);
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
  const sqlite = new SQLite(file);
  if (fresh) fs.chmodSync(file, 0o600);
  sqlite.pragma("journal_mode = WAL");
  // Each commit otherwise waits for an fsync (5 ms on this kind of disk), holding the one event loop:
  // a metered call's three commits capped the whole process near 60 calls a second (decision 0087).
  // In WAL mode NORMAL keeps every commit atomic and visible to other processes at once, and survives a
  // crash of the process; only an OS crash or power cut can lose the commits since the last checkpoint.
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  // Tests and the CLI write the same file as the server: wait for a lock instead of failing.
  sqlite.pragma("busy_timeout = 5000");
  const stopCheckpoints = options.checkpointInBackground && file !== ":memory:" ? checkpointInBackground(sqlite, file) : () => {};
  return new Kysely<Database>({
    dialect: new MigratingInTransactionsSqliteDialect({ database: keepingStatements(sqlite, stopCheckpoints) }),
    plugins: [new InlineLimits()],
  });
}

/**
 * SQLite runs schema changes in transactions, but Kysely's SQLite adapter says it can't, so its Migrator
 * ran migrations bare: one stopped part-way (the container stopped during an upgrade, a full disk) left
 * its first changes without its row in kysely_migration, and every later start failed on them ("duplicate
 * column name"). Saying it can makes the Migrator do what it does on PostgreSQL: the pending migrations
 * and their rows in one transaction, kept whole or not at all. (The flag is read by the Migrator alone.
 * No migration may need to run outside a transaction: none sets a PRAGMA, which a transaction ignores,
 * or opens a transaction of its own.)
 */
class MigratingInTransactionsSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}
class MigratingInTransactionsSqliteDialect extends SqliteDialect {
  override createAdapter(): SqliteAdapter {
    return new MigratingInTransactionsSqliteAdapter();
  }
}

/**
 * Kysely prepares every query anew, and for the small queries a request makes, preparing costs about
 * as much as running. Statements are kept by their SQL (a bounded, least-recently-used set); Kysely
 * runs one query at a time on its single SQLite connection, so a kept statement is never busy.
 */
function keepingStatements(sqlite: SQLite.Database, beforeClose: () => void, size = 500): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      beforeClose();
      sqlite.close();
    },
    prepare(query) {
      // Kysely begins with a plain (deferred) BEGIN: a transaction that reads, then writes after another
      // process (the operator CLI) wrote, fails at once with SQLITE_BUSY_SNAPSHOT instead of waiting.
      // IMMEDIATE takes the write lock at the start, where busy_timeout makes the other side wait.
      const sql = query === "begin" ? "begin immediate" : query;
      let statement = statements.get(sql);
      if (statement) statements.delete(sql);
      else statement = sqlite.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > size) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}

/** A failure at start whose message is all an operator needs (one line, no password): printed without a stack. */
export class DatabaseStartError extends Error {
  override name = "DatabaseStartError";
}

function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // An AggregateError (a host name with several addresses, each refused) has no message of its own.
  return error.message || (error as NodeJS.ErrnoException).code || error.name;
}

/** Runs the migrations this database has not had yet; returns their names, in order. */
export async function migrate(db: DB): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (!error) return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
  const failed = results?.find((r) => r.status === "Error");
  if (failed) throw new DatabaseStartError(`Migration ${failed.migrationName} failed: ${reason(error)}`, { cause: error });
  const newer = await unknownMigrations(db);
  if (newer.length > 0) {
    // Kysely calls this "corrupted migrations"; it is what a rolled-back build or an old replica of a
    // rolling upgrade meets, and there are no down migrations.
    throw new DatabaseStartError(
      `This database was migrated by a newer build (migration ${newer.at(-1)}). Run that build, or restore a backup taken before the upgrade.`,
      { cause: error },
    );
  }
  throw error;
}

/** Migrations the database has run that this build does not know (none when it can't tell). */
async function unknownMigrations(db: DB): Promise<string[]> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    return rows.map((r) => r.name).filter((name) => !(name in migrations));
  } catch {
    return [];
  }
}

/**
 * What migrating changed, in one line for the operator's log (nothing when nothing ran): an upgrade names
 * the migrations it applied, so the log says when the schema changed.
 */
export function migrationsLine(applied: string[]): string | null {
  if (applied.length === 0) return null;
  if (applied.length === Object.keys(migrations).length) return `Database created (${applied.length} migrations, up to ${applied.at(-1)})`;
  return `Database migrated: applied ${applied.join(", ")}`;
}

/**
 * The database opened and migrated, or a DatabaseStartError saying in one line what went wrong and
 * where: the server and the operator commands both start this way. `say` gets migrationsLine's line.
 */
export async function openMigrated(options: DatabaseOptions, say: (line: string) => void = console.log): Promise<DB> {
  const where = options.url
    ? `Cannot connect to DATABASE_URL (${postgresHost(options.url)})`
    : `Cannot open DATABASE_PATH (${options.path ?? "data/console.db"})`;
  let db: DB;
  // On PostgreSQL, migrations run on connections of their own without the request limits: a migration
  // over a large table may rightly take minutes. SQLite has no such limits, and one connection.
  let migrating: DB;
  try {
    db = openDatabase(options);
    migrating = options.url ? openDatabase({ ...options, postgresLimits: null }) : db;
  } catch (error) {
    throw new DatabaseStartError(`${where}: ${reason(error)}`, { cause: error });
  }
  try {
    const line = migrationsLine(await migrate(migrating));
    if (line) say(line);
  } catch (error) {
    await db.destroy().catch(() => {});
    if (error instanceof DatabaseStartError) throw error;
    throw new DatabaseStartError(`${where}: ${reason(error)}`, { cause: error });
  } finally {
    if (migrating !== db) await migrating.destroy().catch(() => {});
  }
  return db;
}
