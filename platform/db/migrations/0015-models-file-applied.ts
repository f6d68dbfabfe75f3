import type { Kysely } from "kysely";
import { bigType } from "../dialect";

/**
 * What MODELS_FILE last applied, per model name (decision 0099): a hash of the entry as written. A start
 * applies an entry only when it is new or its hash changed, so the model editor's changes (a price, a
 * maintenance status, a deletion) stand until the file's entry itself changes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("models_file_applied")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("entry_hash", "text", (c) => c.notNull())
    .addColumn("applied_at", bigType(db), (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("models_file_applied").execute();
}
