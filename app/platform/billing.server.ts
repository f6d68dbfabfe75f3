import { queryString } from "~/lib/query-string";
import { z } from "zod";
import type { autoPaymentSchema, LedgerQuery } from "@contract/billing";
import { confirmedSetupSchema, rechargeStatusSchema } from "@contract/billing";
import { BILLING_MESSAGES } from "~/features/billing/messages";
import type { PlatformClient } from "./client.server";
import { addFundsResultSchema, anySchema, balanceSchema, billingConfigSchema, ledgerSchema, paymentMethodSchema, stripeConfigSchema } from "./billing";

/**
 * POST /billing/payment-method as the console reads it: an answer without a usable secret is passed on
 * as null, so the card form says SPEC §8's "No client secret returned" (the contract's schema, which
 * requires one, made it a 502 "Failed to setup payment method").
 */
const setupAnswerSchema = z
  .object({ clientSecret: z.unknown() })
  .transform(({ clientSecret }) => ({ clientSecret: typeof clientSecret === "string" && clientSecret !== "" ? clientSecret : null }));

/** The billing calls of SPEC §7, with SPEC §8's default messages. */
export function billingApi(api: PlatformClient) {
  return {
    balance: () => api.call("GET", "/billing/balance", balanceSchema, "Failed to load current balance."),
    ledger: (page: LedgerQuery = {}) => api.call("GET", `/billing/ledger${queryString(page)}`, ledgerSchema, "Failed to load ledger activity."),
    config: () => api.call("GET", "/billing/config", billingConfigSchema, BILLING_MESSAGES.configFailed),
    stripeConfig: () => api.call("GET", "/billing/stripe-config", stripeConfigSchema, "Failed to initialize billing. Please try again later."),
    paymentMethod: () => api.call("GET", "/billing/payment-method", paymentMethodSchema, "Failed to load payment method."),
    setupPaymentMethod: () => api.call("POST", "/billing/payment-method", setupAnswerSchema, "Failed to setup payment method"),
    confirmSetup: (setupIntentId: string) =>
      api.call("POST", "/billing/payment-method/confirm", confirmedSetupSchema, "Failed to update billing information. Please contact support.", {
        setupIntentId,
      }),
    removePaymentMethod: () => api.call("DELETE", "/billing/payment-method", anySchema, "Failed to remove payment method"),
    addFunds: (amount: number, idempotencyKey?: string) =>
      api.call("POST", "/billing/add-funds", addFundsResultSchema, "Adding funds failed", { amount, idempotencyKey }),
    recharges: () => api.call("GET", "/billing/recharges", rechargeStatusSchema, "Failed to load the automatic recharge status."),
    /** Amounts may be left out when switching off: the platform's schema defaults them and keeps what it has. */
    saveAutoPayment: (input: z.input<typeof autoPaymentSchema>) =>
      api.call("POST", "/billing/auto-payment-config", billingConfigSchema, "Failed to save auto-payment settings", input),
  };
}
