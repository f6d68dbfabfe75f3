/**
 * Sets an organization's payment mode (an operator's setting until the organization editor exists):
 *   npm run billing-mode -- ORG_ID manual|auto|invoice
 * Uses DATABASE_URL or DATABASE_PATH (default data/console.db), like the server.
 */
import { setPaymentMode } from "../platform/billing/accounts";
import { migrate, openDatabase } from "../platform/db";
import type { PaymentMode } from "@contract/billing";
import { PAYMENT_MODES } from "@contract/billing";

const MODES: readonly PaymentMode[] = PAYMENT_MODES;

async function main(): Promise<number> {
  const [rawId, mode] = process.argv.slice(2);
  const orgId = Number(rawId);
  if (!Number.isInteger(orgId) || orgId < 1 || !MODES.includes(mode as PaymentMode)) {
    console.error("Usage: npm run billing-mode -- ORG_ID manual|auto|invoice");
    return 2;
  }
  const db = openDatabase({ url: process.env.DATABASE_URL, path: process.env.DATABASE_PATH ?? "data/console.db" });
  try {
    await migrate(db);
    const org = await db.selectFrom("organizations").select(["id", "name"]).where("id", "=", orgId).executeTakeFirst();
    if (!org) {
      console.error(`No organization with id ${orgId}`);
      return 1;
    }
    await setPaymentMode({ db, now: Date.now, config: { sessionSecret: "", orgSignupEnabled: true, systemAdmins: [], oauth: {}, allowDevSignin: false } }, orgId, mode as PaymentMode);
    console.log(`Organization ${org.id} (${org.name}) now uses ${mode} billing.`);
    return 0;
  } finally {
    await db.destroy();
  }
}

process.exitCode = await main();
