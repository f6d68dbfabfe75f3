import { afterEach, describe, expect, it } from "vitest";
import type { DB } from "./index";
import { migrate, openDatabase } from "./index";

let db: DB | undefined;
afterEach(async () => {
  await db?.destroy();
  db = undefined;
});

async function withUsers(count: number) {
  db = openDatabase({ path: ":memory:" });
  await migrate(db);
  for (let i = 0; i < count; i++) {
    await db
      .insertInto("users")
      .values({ name: `User ${i}`, email: `user${i}@example.test`, email_verified: 1, created_at: i })
      .execute();
  }
  return db;
}

describe("LIMIT and OFFSET on SQLite", () => {
  it("are written into the SQL, so a kept statement is not prepared again at each run, and still page", async () => {
    const db = await withUsers(5);
    const page = (limit: number, offset: number) => db.selectFrom("users").select("name").orderBy("id").limit(limit).offset(offset);
    const compiled = page(2, 1).compile();
    expect(compiled.sql).toMatch(/limit 2 offset 1$/);
    expect(compiled.parameters).toEqual([]);
    expect(await page(2, 1).execute()).toEqual([{ name: "User 1" }, { name: "User 2" }]);
    expect(await page(2, 3).execute()).toEqual([{ name: "User 3" }, { name: "User 4" }]);
  });

  it("stay bound when they are not whole numbers, so SQLite refuses them as before", async () => {
    const db = await withUsers(1);
    const compiled = db.selectFrom("users").select("name").limit(1.5).offset(-1).compile();
    expect(compiled.sql).toMatch(/limit \? offset \?$/);
    expect(compiled.parameters).toEqual([1.5, -1]);
  });
});
