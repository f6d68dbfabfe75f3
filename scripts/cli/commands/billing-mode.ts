import type { PaymentMode } from "@contract/billing";
import { PAYMENT_MODES } from "@contract/billing";
import { setPaymentMode } from "../../../platform/billing/accounts";
import type { Command } from "../command";
import { organization, organizationId, withDatabase } from "../command";

const MODES: readonly PaymentMode[] = PAYMENT_MODES;

export const command: Command = {
  usage: `ORG_ID ${MODES.join("|")}`,
  summary: "sets an organization's payment mode (as the system organization's /system/orgs page does)",
  async run(args) {
    const [rawId, mode] = args;
    const orgId = organizationId(rawId);
    if (args.length !== 2 || orgId === undefined || !MODES.includes(mode as PaymentMode)) return 2;
    return withDatabase(async (deps) => {
      const org = await organization(deps, orgId);
      const changed = await setPaymentMode(deps, orgId, mode as PaymentMode);
      console.log(`Organization ${org.id} (${org.name}) ${changed ? "now uses" : "already uses"} ${mode} billing.`);
      return 0;
    });
  },
};
