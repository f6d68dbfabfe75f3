import { formatMoney } from "@contract/money";
import { creditReversalDescription, reverseCredit } from "../../../platform/billing/credits";
import { PlatformError } from "../../../platform/http/errors";
import type { Command } from "../command";
import { organization, organizationId, textArgument, withDatabase } from "../command";

export const command: Command = {
  usage: 'ORG_ID AMOUNT [--] "reason"',
  summary:
    'takes back granted credit (at most what was granted and not yet reversed, and the balance unless invoiced): the ledger row "Credit reversed: reason". A reason that starts with "-" goes after --',
  async run([rawId, rawAmount, ...words]) {
    const orgId = organizationId(rawId);
    // The amount taken back, written as a credit's: positive, a plain decimal.
    const reason = textArgument(words);
    if (orgId === undefined || !rawAmount || !/^\d+(\.\d+)?$/.test(rawAmount) || reason === undefined) return 2;
    return withDatabase(async (deps) => {
      const org = await organization(deps, orgId);
      try {
        const reversal = await reverseCredit(deps, orgId, Number(rawAmount), reason);
        console.log(
          `Took back $${reversal.amount.toFixed(2)} from organization ${org.id} (${org.name}): ${creditReversalDescription(reversal.reason)}. Balance now ${formatMoney(reversal.balance)}.`,
        );
        return 0;
      } catch (error) {
        if (!(error instanceof PlatformError)) throw error;
        console.error(`Not reversed: ${error.message}`);
        return 1;
      }
    });
  },
};
