import { z } from "zod";

/** The billing wire is the contract's (SPEC §3, DESIGN §3). */
export {
  addFundsResultSchema,
  balanceSchema,
  billingConfigSchema,
  ledgerRowSchema,
  ledgerSchema,
  paymentMethodSchema,
  paymentModeSchema,
  setupSchema,
  stripeConfigSchema,
} from "@contract/billing";
export type { BillingConfig, LedgerRow, PaymentMethodSummary, PaymentMode } from "@contract/billing";
export const anySchema = z.unknown();
