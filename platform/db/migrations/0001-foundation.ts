import type { Kysely } from "kysely";
import { bigType, idType, primaryId, syncSequence } from "../dialect";

export async function up(db: Kysely<unknown>): Promise<void> {
  const id = idType(db);
  const big = bigType(db);

  await db.schema
    .createTable("users")
    .addColumn("id", id, primaryId(db))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("email_verified", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("users_email").on("users").column("email").execute();

  await db.schema
    .createTable("oauth_accounts")
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", big, (c) => c.notNull())
    .addPrimaryKeyConstraint("oauth_accounts_pk", ["provider", "subject"])
    .execute();

  await db.schema
    .createTable("organizations")
    .addColumn("id", id, primaryId(db))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", big, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("active_org_id", "integer", (c) => c.references("organizations.id").onDelete("set null"))
    .addColumn("expires_at", big, (c) => c.notNull())
    .addColumn("created_at", big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_user").on("sessions").column("user_id").execute();

  await db.schema
    .createTable("memberships")
    .addColumn("org_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("created_at", big, (c) => c.notNull())
    .addPrimaryKeyConstraint("memberships_pk", ["org_id", "user_id"])
    .execute();
  await db.schema.createIndex("memberships_user").on("memberships").column("user_id").execute();

  await db.schema
    .createTable("invites")
    .addColumn("id", id, primaryId(db))
    .addColumn("code", "text", (c) => c.notNull().unique())
    .addColumn("org_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("created_by", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", big, (c) => c.notNull())
    .addColumn("used_at", big)
    .addColumn("use_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("dev_auth_codes")
    .addColumn("code_hash", "text", (c) => c.primaryKey())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("redirect_uri", "text", (c) => c.notNull())
    .addColumn("code_challenge", "text", (c) => c.notNull())
    .addColumn("expires_at", big, (c) => c.notNull())
    .addColumn("used_at", big)
    .execute();

  // Organization 1 is the system organization; it starts with no members (DESIGN §3).
  await db
    .insertInto("organizations" as never)
    .values({ id: 1, name: "System", created_at: Date.now() } as never)
    .execute();
  await syncSequence(db, "organizations");
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["dev_auth_codes", "invites", "memberships", "sessions", "organizations", "oauth_accounts", "users"]) {
    await db.schema.dropTable(table).execute();
  }
}
