import { createHash, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { bigType, idType, primaryId } from "../dialect";

/** API tokens (issue 3): only a SHA-256 of each secret is kept; one primary token per organization. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const big = bigType(db);
  await db.schema
    .createTable("api_tokens")
    .addColumn("id", idType(db), primaryId(db))
    .addColumn("public_id", "text", (c) => c.notNull().unique())
    .addColumn("org_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("secret_hash", "text", (c) => c.notNull().unique())
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("is_primary", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expires_at", big)
    .addColumn("revoked_at", big)
    .addColumn("last_used_at", big)
    .addColumn("created_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("api_tokens_org").on("api_tokens").column("org_id").execute();

  // Organizations made before this migration (the system organization) get their primary token too.
  // Its secret is never shown: an admin resets it to obtain one.
  const orgs = (await db
    .selectFrom("organizations" as never)
    .select("id" as never)
    .execute()) as { id: number }[];
  for (const org of orgs) {
    await db
      .insertInto("api_tokens" as never)
      .values({
        public_id: randomBytes(9).toString("base64url"),
        org_id: org.id,
        secret_hash: createHash("sha256")
          .update(`sk-${randomBytes(32).toString("base64url")}`)
          .digest("hex"),
        scopes: JSON.stringify(["chat", "models:read", "images", "audio"]),
        is_primary: 1,
        created_at: Date.now(),
      } as never)
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("api_tokens").execute();
}
