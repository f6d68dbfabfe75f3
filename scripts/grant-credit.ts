/**
 * Grants an organization a credit (a ledger row "Credit: reason" and the balance, in one transaction):
 *   npm run grant-credit -- ORG_ID AMOUNT "reason"
 * Uses DATABASE_URL or DATABASE_PATH (default data/console.db), like the server.
 */
import { grantCredit } from "../platform/billing/credits";
import { migrate, openDatabase } from "../platform/db";
import { PlatformError } from "../platform/http/errors";

const USAGE = 'Usage: npm run grant-credit -- ORG_ID AMOUNT "reason"';

async function main(): Promise<number> {
  const [rawId, rawAmount, ...words] = process.argv.slice(2);
  const orgId = Number(rawId);
  // The shell gives text; the amount is then held to the wire's rule (a plain decimal, 2 decimals at most).
  if (!Number.isSafeInteger(orgId) || orgId < 1 || !rawAmount || !/^\d+(\.\d+)?$/.test(rawAmount)) {
    console.error(USAGE);
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
    const deps = { db, now: Date.now, config: { sessionSecret: "", orgSignupEnabled: true, systemAdmins: [], oauth: {}, allowDevSignin: false } };
    const credit = await grantCredit(deps, orgId, Number(rawAmount), words.join(" "));
    console.log(`Credited $${credit.amount.toFixed(2)} to organization ${org.id} (${org.name}): Credit: ${credit.reason}`);
    return 0;
  } catch (error) {
    if (error instanceof PlatformError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await db.destroy();
  }
}

process.exitCode = await main();
