import type { Kysely } from "kysely";

/**
 * Who asked for a charge (decision 0139): a payment that reconciliation credits, after the provider's
 * answer was lost, is audited as that person's, as the request's own credit would have been. Null for
 * an automatic recharge, which nobody asked for at the time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("payment_intents")
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("payment_intents").dropColumn("user_id").execute();
}
