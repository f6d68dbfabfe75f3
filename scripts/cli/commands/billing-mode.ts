import type { PaymentMode } from "@contract/billing";
import { PAYMENT_MODES } from "@contract/billing";
import { setPaymentMode } from "../../../platform/billing/accounts";
import type { Command } from "../command";
import { withDatabase } from "../command";

const MODES: readonly PaymentMode[] = PAYMENT_MODES;

export const command: Command = {
  usage: `ORG_ID ${MODES.join("|")}`,
  summary: "sets an organization's payment mode (an operator's setting until the organization editor exists)",
  async run([rawId, mode]) {
    const orgId = Number(rawId);
    if (!Number.isInteger(orgId) || orgId < 1 || !MODES.includes(mode as PaymentMode)) return 2;
    return withDatabase(async (db) => {
      const org = await db.selectFrom("organizations").select(["id", "name"]).where("id", "=", orgId).executeTakeFirst();
      if (!org) {
        console.error(`No organization with id ${orgId}`);
        return 1;
      }
      const config = { sessionSecret: "", orgSignupEnabled: true, systemAdmins: [], oauth: {}, allowDevSignin: false };
      await setPaymentMode({ db, now: Date.now, config }, orgId, mode as PaymentMode);
      console.log(`Organization ${org.id} (${org.name}) now uses ${mode} billing.`);
      return 0;
    });
  },
};
