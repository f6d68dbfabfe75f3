import type { Kysely } from "kysely";

/**
 * What a running stream had sent by its last recheck, kept with its hold (decision 0102): a process
 * that dies mid-stream leaves it, and the sweeper charges that instead of releasing the hold for free.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("spend_reservations").addColumn("progress", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("spend_reservations").dropColumn("progress").execute();
}
