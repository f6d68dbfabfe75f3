import type { Kysely } from "kysely";
import { foldForSearch } from "../../http/names";

/**
 * The organization's name as the Org Editor's search matches it (decision 0120), folded in JavaScript:
 * SQLite's lower() folds A–Z alone and PostgreSQL's follows the cluster's locale, so "Élan" was not
 * found by "Élan" on SQLite. Filled here for the organizations already made.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("organizations")
    .addColumn("name_search", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  const orgs = (await db
    .selectFrom("organizations" as never)
    .select(["id" as never, "name" as never])
    .execute()) as { id: number; name: string }[];
  for (const org of orgs) {
    await db
      .updateTable("organizations" as never)
      .set({ name_search: foldForSearch(org.name) } as never)
      .where("id" as never, "=", org.id as never)
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("organizations").dropColumn("name_search").execute();
}
