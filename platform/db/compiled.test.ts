import { afterEach, describe, expect, it } from "vitest";
import { compiledOnce, compiledPerPageSize } from "./compiled";
import type { DB } from "./index";
import { migrate, openDatabase } from "./index";

let db: DB | undefined;
afterEach(async () => {
  await db?.destroy();
  db = undefined;
});

async function withUsers(...names: string[]) {
  db = openDatabase({ path: ":memory:" });
  await migrate(db);
  for (const [i, name] of names.entries()) {
    await db
      .insertInto("users")
      .values({ name, email: `${name.toLowerCase()}@example.test`, email_verified: 1, created_at: i })
      .execute();
  }
  return db;
}

describe("compiledOnce", () => {
  it("answers each call with that call's values, and keeps the query's own values", async () => {
    const db = await withUsers("Ada", "Bob", "Cy");
    const byNameAfter = compiledOnce((db, name: string, after: number) =>
      db.selectFrom("users").select("email").where("name", "=", name).where("created_at", ">=", after).where("email", "like", "%@example.test"),
    );
    expect(await byNameAfter(db, "Bob", 0)).toEqual([{ email: "bob@example.test" }]);
    expect(await byNameAfter(db, "Ada", 0)).toEqual([{ email: "ada@example.test" }]);
    expect(await byNameAfter(db, "Ada", 1)).toEqual([]);
    expect(await byNameAfter(db, "Nobody", 0)).toEqual([]);
  });

  it("refuses a query that does not use every value as given", async () => {
    const db = await withUsers("Ada");
    const transformed = compiledOnce((db, name: string) => db.selectFrom("users").select("email").where("name", "=", name.toUpperCase()));
    await expect(transformed(db, "Ada")).rejects.toThrow("every value must appear once");
  });

  it("refuses a LIMIT or OFFSET taken as a value, which SQLite would prepare again at every run", async () => {
    const db = await withUsers("Ada");
    const limited = compiledOnce((db, limit: number) => db.selectFrom("users").select("email").limit(limit));
    await expect(limited(db, 1)).rejects.toThrow("a LIMIT or OFFSET must be written into the query");
    const offset = compiledOnce((db, offset: number) => db.selectFrom("users").select("email").limit(1).offset(offset));
    await expect(offset(db, 0)).rejects.toThrow("a LIMIT or OFFSET must be written into the query");
  });
});

describe("compiledPerPageSize", () => {
  it("answers each call with its page size and values (compiledOnce takes each size as written into the query)", async () => {
    const db = await withUsers("Ada", "Bob", "Cy");
    const firstJoined = compiledPerPageSize((db, limit, after: number) =>
      db.selectFrom("users").select("name").where("created_at", ">=", after).orderBy("created_at").limit(limit),
    );
    expect(await firstJoined(db, 2, 0)).toEqual([{ name: "Ada" }, { name: "Bob" }]);
    expect(await firstJoined(db, 1, 1)).toEqual([{ name: "Bob" }]);
    expect(await firstJoined(db, 2, 1)).toEqual([{ name: "Bob" }, { name: "Cy" }]);
    expect(await firstJoined(db, 5, 3)).toEqual([]);
  });
});
