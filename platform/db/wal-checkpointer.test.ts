import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, expect, test } from "vitest";
import { migrate, openDatabase } from "./index";
import type { DB } from "./index";

let dir: string;
let db: DB | undefined;
afterEach(async () => {
  await db?.destroy();
  db = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Writes enough to fill the log well past a checkpoint's worth, as a server under load does. */
async function writeMany(database: DB) {
  for (let i = 0; i < 400; i++) {
    await database
      .insertInto("users")
      .values({ name: `User ${i}`, email: `user${i}@example.test`, email_verified: 0, created_at: i })
      .execute();
  }
}

const waitFor = async (condition: () => boolean, ms = 5000) => {
  const until = Date.now() + ms;
  while (!condition() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  return condition();
};

test("the server's SQLite log is copied into the database file by the background checkpointer, not by its commits", async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "wal-checkpointer-"));
  const file = path.join(dir, "console.db");
  db = openDatabase({ path: file, checkpointInBackground: true });
  await migrate(db);
  // The commits themselves no longer checkpoint …
  const [{ wal_autocheckpoint }] = (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db)).rows;
  expect(wal_autocheckpoint).toBe(0);
  const before = fs.statSync(file).size;
  await writeMany(db);
  // … and the rows still reach the database file itself, without another write from this connection.
  expect(await waitFor(() => fs.statSync(file).size > before)).toBe(true);
  const [{ n }] = (await sql<{ n: number }>`select count(*) as n from users`.execute(db)).rows;
  expect(Number(n)).toBe(400);
});

test("without the background checkpointer (tests, the CLI), SQLite checkpoints in its commits as usual", async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "wal-checkpointer-"));
  db = openDatabase({ path: path.join(dir, "console.db") });
  const [{ wal_autocheckpoint }] = (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db)).rows;
  expect(wal_autocheckpoint).toBe(1000);
});
