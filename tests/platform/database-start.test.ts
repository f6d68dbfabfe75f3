import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { migrate, migrationsLine, openDatabase, openMigrated } from "../../platform/db";
import { closedPort } from "./closed-port";
import { startRefusal } from "./start-refusal";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "database-start-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("a database that can't be used stops the start with one line (audit F L1)", () => {
  it("names DATABASE_URL's host, port and database, never the password", async () => {
    const port = await closedPort();
    const error = await startRefusal(openMigrated({ url: `postgres://console:hunter2@127.0.0.1:${port}/console` }));
    expect(error.message).toBe(`Cannot connect to DATABASE_URL (127.0.0.1:${port}/console): connect ECONNREFUSED 127.0.0.1:${port}`);
  });

  it("names a DATABASE_PATH that can't be opened", async () => {
    const error = await startRefusal(openMigrated({ path: dir }));
    expect(error.message).toBe(`Cannot open DATABASE_PATH (${dir}): unable to open database file`);
  });

  it("names the migration that failed", async () => {
    const file = path.join(dir, "taken.db");
    const db = openDatabase({ path: file });
    // Something else already made a table the first migration creates.
    await sql`create table organizations (x integer)`.execute(db);
    await db.destroy();
    const error = await startRefusal(openMigrated({ path: file }));
    expect(error.message).toMatch(/^Migration 0001-foundation failed: .*organizations/);
  });

  it("says plainly that a newer build migrated the database (a rollback, or an old replica during an upgrade)", async () => {
    const file = path.join(dir, "newer.db");
    const db = openDatabase({ path: file });
    await migrate(db);
    await sql`insert into kysely_migration (name, timestamp) values ('0999-from-the-future', '2030-01-01T00:00:00.000Z')`.execute(db);
    await db.destroy();
    const error = await startRefusal(openMigrated({ path: file }));
    expect(error.message).toBe(
      "This database was migrated by a newer build (migration 0999-from-the-future). Run that build, or restore a backup taken before the upgrade.",
    );
  });
});

describe("a new SQLite database", () => {
  it("is readable by the server's user alone, with its folder and its log (it holds the upstream keys)", async () => {
    const folder = path.join(dir, "fresh", "data");
    const file = path.join(folder, "console.db");
    const db = await openMigrated({ path: file });
    const mode = (f: string) => fs.statSync(f).mode & 0o777;
    expect({ folder: mode(folder), file: mode(file), log: mode(`${file}-wal`) }).toEqual({ folder: 0o700, file: 0o600, log: 0o600 });
    await db.destroy();
  });
});

describe("the log at start (audit M L8)", () => {
  it("says the database was created, then nothing while no migration is due, and names the migrations an upgrade applied", async () => {
    const file = path.join(dir, "said", "console.db");
    const said: string[] = [];
    await (await openMigrated({ path: file }, (line) => said.push(line))).destroy();
    expect(said).toEqual([expect.stringMatching(/^Database created \(\d+ migrations, up to \d{4}-[a-z-]+\)$/)]);
    await (await openMigrated({ path: file }, (line) => said.push(line))).destroy();
    expect(said).toHaveLength(1);
    expect(migrationsLine(["0016-reservation-progress"])).toBe("Database migrated: applied 0016-reservation-progress");
    expect(migrationsLine([])).toBeNull();
  });
});

describe("a migration that fails part-way", () => {
  /** A database of its own: a SQLite file, or with TEST_DATABASE_URL a new database on that PostgreSQL server. */
  async function target(name: string): Promise<{ options: { url?: string; path?: string }; drop: () => Promise<void> }> {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) return { options: { path: path.join(dir, `${name}.db`) }, drop: async () => {} };
    const database = `t_${name.replace(/\W/g, "_")}_${process.pid}_${Date.now()}`;
    const admin = async (query: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(query).finally(() => client.end());
    };
    await admin(`create database ${database}`);
    const scoped = new URL(url);
    scoped.pathname = `/${database}`;
    return { options: { url: scoped.toString() }, drop: () => admin(`drop database if exists ${database} with (force)`) };
  }

  it("leaves no trace (its columns, the migrations before it in the run), and the next start migrates", async () => {
    const { options, drop } = await target("part-way");
    try {
      // 0007 adds columns to billing_accounts, then creates spend_reservations: made here first, it
      // stops that migration after its first changes, as a stopped container or a full disk would.
      let db = openDatabase(options);
      await sql`create table spend_reservations (x integer)`.execute(db);
      await db.destroy();
      const error = await startRefusal(openMigrated(options));
      expect(error.message).toMatch(/^Migration 0007-spend-control-and-limits failed: .*spend_reservations/);

      db = openDatabase(options);
      const tables = (await db.introspection.getTables({ withInternalKyselyTables: true })).map((t) => t.name).sort();
      expect(tables).toEqual(["kysely_migration", "kysely_migration_lock", "spend_reservations"]);
      expect((await sql`select name from kysely_migration`.execute(db)).rows).toEqual([]);
      // The operator removes the cause; the next start runs every migration.
      await sql`drop table spend_reservations`.execute(db);
      await db.destroy();
      const said: string[] = [];
      db = await openMigrated(options, (line) => said.push(line));
      expect(said).toEqual([expect.stringMatching(/^Database created \(\d+ migrations, up to /)]);
      await sql`select reserved_micros from billing_accounts`.execute(db);
      await db.destroy();
    } finally {
      await drop();
    }
  });
});
