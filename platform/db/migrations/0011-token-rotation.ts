import type { Kysely } from "kysely";
import { bigType } from "../dialect";

/**
 * Key rotation with a grace period (issue 16, decision 0089): after a roll the token keeps its row
 * (id, settings, spend, usage) with the new secret's hash; the old secret's hash stays valid until
 * `previous_secret_expires_at`. Unique, so a secret names at most one token in either column.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("api_tokens").addColumn("previous_secret_hash", "text").execute();
  // SQLite can't add a UNIQUE column; a unique index does the same on both.
  await db.schema.createIndex("api_tokens_previous_secret").on("api_tokens").column("previous_secret_hash").unique().execute();
  await db.schema.alterTable("api_tokens").addColumn("previous_secret_expires_at", bigType(db)).execute();
  await db.schema.alterTable("api_tokens").addColumn("rolled_at", bigType(db)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("api_tokens_previous_secret").execute();
  for (const column of ["previous_secret_hash", "previous_secret_expires_at", "rolled_at"])
    await db.schema.alterTable("api_tokens").dropColumn(column).execute();
}
