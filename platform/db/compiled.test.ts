import { afterEach, describe, expect, it } from "vitest";
import { compiledOnce } from "./compiled";
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
});
