import type { Kysely, MigrationProvider } from "kysely";
import { Migrator, sql } from "kysely";
import { afterEach, expect, it } from "vitest";
import { migrate, migrations } from "../../platform/db";
import type { DB } from "../../platform/db";
import { freshDatabase } from "./harness";

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A database as the build before member search left it: migrated up to 0018. */
async function before0019(): Promise<DB> {
  const fresh = await freshDatabase();
  close = fresh.close;
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const { error } = await new Migrator({ db: fresh.db as Kysely<unknown>, provider }).migrateTo("0018-organization-search-name");
  if (error) throw error;
  return fresh.db;
}

it("fills the search text of the users already there, more than a batch of them, and folds the organization names again", async () => {
  const db = await before0019();
  const users = Array.from({ length: 2100 }, (_, i) => ({ name: `Person ${i}`, email: `p${i}@example.test`, email_verified: 1, created_at: 1 }));
  users[2050] = { ...users[2050], name: "İlker ΚΩΝΣΤΑΝΤΙΝΟΣ" };
  for (let i = 0; i < users.length; i += 500)
    await db
      .insertInto("users")
      .values(users.slice(i, i + 500) as never)
      .execute();
  await sql`insert into organizations (name, name_search, created_at) values ('ΟΔΟΣ Works', 'οδος works', 1)`.execute(db);

  expect(await migrate(db)).toContain("0019-member-search");
  const texts = await db.selectFrom("users").select(["email", "search_text"]).orderBy("id").execute();
  expect(texts.filter((u) => u.search_text === "")).toEqual([]);
  expect(texts[0].search_text).toBe("person 0\np0@example.test");
  expect(texts[2050].search_text).toBe("ilker κωνσταντινοσ\np2050@example.test");
  expect((await db.selectFrom("organizations").select("name_search").where("name", "=", "ΟΔΟΣ Works").executeTakeFirstOrThrow()).name_search).toBe(
    "οδοσ works",
  );
});
