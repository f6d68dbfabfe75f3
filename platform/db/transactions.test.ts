import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterEach, expect, test } from "vitest";
import { migrate, openDatabase } from "./index";
import type { DB } from "./index";

let dir: string;
let db: DB | undefined;
let other: SQLite.Database | undefined;
afterEach(async () => {
  other?.close();
  await db?.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("a transaction that reads then writes is not broken by another process writing the same SQLite file in between", async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlite-tx-"));
  const file = path.join(dir, "console.db");
  db = openDatabase({ path: file });
  await migrate(db);
  // Another process (the operator CLI, a second tool): it does not wait for a lock.
  other = new SQLite(file);
  other.pragma("busy_timeout = 0");
  const insertElsewhere = () => {
    try {
      other!.prepare("insert into users (name, email, created_at) values ('Other', 'other@example.test', 1)").run();
      return "written";
    } catch (error) {
      return (error as { code?: string }).code;
    }
  };

  let outcome: string | undefined;
  await db.transaction().execute(async (trx) => {
    await trx.selectFrom("users").select("id").execute();
    outcome = insertElsewhere();
    await trx.insertInto("users").values({ name: "Mine", email: "mine@example.test", email_verified: 0, created_at: 2 }).execute();
  });

  // The transaction held the write lock from its start: the other writer waited its turn (and would
  // retry), rather than the transaction failing halfway with SQLITE_BUSY_SNAPSHOT.
  expect(outcome).toBe("SQLITE_BUSY");
  expect((await db.selectFrom("users").select("name").execute()).map((u) => u.name)).toEqual(["Mine"]);
});
