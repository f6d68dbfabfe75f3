import type { Kysely } from "kysely";
import { userSearchText } from "../../http/names";

/**
 * A user's name and email as /team's member search matches them, folded in JavaScript as the
 * organization names of 0018 are (decision 0132). Filled here for the users already made.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("search_text", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  const users = (await db
    .selectFrom("users" as never)
    .select(["id" as never, "name" as never, "email" as never])
    .execute()) as { id: number; name: string; email: string }[];
  for (const user of users) {
    await db
      .updateTable("users" as never)
      .set({ search_text: userSearchText(user) } as never)
      .where("id" as never, "=", user.id as never)
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("search_text").execute();
}
