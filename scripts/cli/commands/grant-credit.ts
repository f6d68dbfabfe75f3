import { grantCredit } from "../../../platform/billing/credits";
import { PlatformError } from "../../../platform/http/errors";
import type { Command } from "../command";
import { organization, organizationId, textArgument, withDatabase } from "../command";

export const command: Command = {
  usage: 'ORG_ID AMOUNT [--] "reason"',
  summary:
    'grants an organization a credit (at most $10,000, 2 decimals): the ledger row "Credit: reason" and the balance, in one transaction. A reason that starts with "-" goes after --',
  async run([rawId, rawAmount, ...words]) {
    const orgId = organizationId(rawId);
    // A negative amount, not an option (those are refused as any other bad argument).
    if (rawAmount && /^-[\d.]/.test(rawAmount)) {
      console.error('A credit is more than $0; to take one back: reverse-credit ORG_ID AMOUNT "reason"');
      return 2;
    }
    // The shell gives text; the amount is then held to the wire's rule (a plain decimal, 2 decimals at most).
    const reason = textArgument(words);
    if (orgId === undefined || !rawAmount || !/^\d+(\.\d+)?$/.test(rawAmount) || reason === undefined) return 2;
    return withDatabase(async (deps) => {
      const org = await organization(deps, orgId);
      try {
        const credit = await grantCredit(deps, orgId, Number(rawAmount), reason);
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
