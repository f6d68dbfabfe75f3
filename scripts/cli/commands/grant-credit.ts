import { grantCredit } from "../../../platform/billing/credits";
import { PlatformError } from "../../../platform/http/errors";
import type { Command } from "../command";
import { withDatabase } from "../command";

export const command: Command = {
  usage: 'ORG_ID AMOUNT "reason"',
  summary: 'grants an organization a credit: the ledger row "Credit: reason" and the balance, in one transaction',
  async run([rawId, rawAmount, ...words]) {
    const orgId = Number(rawId);
    // The shell gives text; the amount is then held to the wire's rule (a plain decimal, 2 decimals at most).
    if (!Number.isSafeInteger(orgId) || orgId < 1 || !rawAmount || !/^\d+(\.\d+)?$/.test(rawAmount)) return 2;
    return withDatabase(async (db) => {
      const org = await db.selectFrom("organizations").select(["id", "name"]).where("id", "=", orgId).executeTakeFirst();
      if (!org) {
        console.error(`No organization with id ${orgId}`);
        return 1;
      }
      const config = { sessionSecret: "", orgSignupEnabled: true, systemAdmins: [], oauth: {}, allowDevSignin: false };
      try {
        const credit = await grantCredit({ db, now: Date.now, config }, orgId, Number(rawAmount), words.join(" "));
        console.log(`Credited $${credit.amount.toFixed(2)} to organization ${org.id} (${org.name}): Credit: ${credit.reason}`);
        return 0;
      } catch (error) {
        if (!(error instanceof PlatformError)) throw error;
        console.error(error.message);
        return 1;
      }
    });
  },
};
