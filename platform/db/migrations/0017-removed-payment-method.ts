import type { Kysely } from "kysely";

/**
 * The card last taken off an organization, removed or replaced (decision 0121): a late Stripe webhook
 * for that card must not put it back. Stripe never lets a detached card be attached again, so one id
 * refused for good is always right.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("billing_accounts").addColumn("removed_payment_method_id", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("billing_accounts").dropColumn("removed_payment_method_id").execute();
}
