import { z } from "zod";
import { afterId, beforeId, pageLimit } from "./ids";
import { dollars, hasAtMostCents } from "./money";

/** SPEC §5 and §9: add funds and auto-recharge take 10 to 10,000 dollars. */
export const MIN_AMOUNT = 10;
export const MAX_AMOUNT = 10_000;
export const DEFAULT_THRESHOLD = 20;
export const DEFAULT_RECHARGE = 10;
/** GET /billing/ledger: rows per page by default, and at most (DESIGN §3). */
export const LEDGER_PAGE = 50;
export const LEDGER_MAX_PAGE = 200;

/** SPEC §8's billing messages, the same on the form and from the platform. */
export const THRESHOLD_NEGATIVE = "Threshold amount must be non-negative";
export const THRESHOLD_TOO_LARGE = `Threshold amount must be at most ${dollars(MAX_AMOUNT)}`;
export const RECHARGE_TOO_SMALL = `Recharge amount must be at least ${dollars(MIN_AMOUNT)}`;
export const RECHARGE_TOO_LARGE = `Recharge amount must be at most ${dollars(MAX_AMOUNT)}`;
export const AMOUNT_REQUIRED = "Enter an amount";
export const THRESHOLD_REQUIRED = "Enter a threshold amount";
export const RECHARGE_REQUIRED = "Enter a recharge amount";
export const AMOUNT_NOT_A_NUMBER = "Amount must be a number";
export const AMOUNT_TOO_SMALL = `Amount must be at least ${dollars(MIN_AMOUNT)}`;
export const AMOUNT_TOO_LARGE = `Amount must be at most ${dollars(MAX_AMOUNT)}`;
export const NOT_CONFIGURED = "Payments are not configured";
export const NO_PAYMENT_METHOD = "No payment method on file. Add a payment method first.";
export const INVOICE_REFUSAL = "This organization is billed by invoice";

export const PAYMENT_MODES = ["manual", "auto", "invoice"] as const;
export const paymentModeSchema = z.enum(PAYMENT_MODES);
export type PaymentMode = z.infer<typeof paymentModeSchema>;

/** GET /billing/balance: dollars. */
export const balanceSchema = z.number();

/** A ledger row (DESIGN §3): `change` is signed dollars, `timestamp` ISO 8601. */
export const ledgerRowSchema = z.object({
  id: z.number(),
  timestamp: z.string(),
  description: z.string(),
  model: z.string().nullable(),
  rateCardId: z.string().nullable(),
  change: z.number(),
});
export type LedgerRow = z.infer<typeof ledgerRowSchema>;
export const ledgerSchema = z.array(ledgerRowSchema);

/** GET /billing/ledger?before=&after=&limit= (keyset pages): `limit` at most LEDGER_MAX_PAGE, as the other lists'. */
export const ledgerQuerySchema = z.object({ before: beforeId.optional(), after: afterId.optional(), limit: pageLimit(LEDGER_MAX_PAGE).optional() });
export type LedgerQuery = z.infer<typeof ledgerQuerySchema>;

export const autoPaymentConfigSchema = z.object({ thresholdAmount: z.number(), rechargeAmount: z.number() });
export const billingConfigSchema = z.object({
  paymentMode: paymentModeSchema.default("manual"),
  autoPaymentConfig: autoPaymentConfigSchema.nullable().default(null),
});
export type BillingConfig = z.infer<typeof billingConfigSchema>;

export const stripeConfigSchema = z.object({ stripePublicKey: z.string().min(1) });

export const cardSummarySchema = z.object({ brand: z.string().nullable(), last4: z.string().nullable() });
export type PaymentMethodSummary = z.infer<typeof cardSummarySchema> | null;
export const paymentMethodSchema = z.object({ paymentMethod: cardSummarySchema.nullable() });

/** POST /billing/payment-method: the SetupIntent's secret for the card form. */
export const setupSchema = z.object({ clientSecret: z.string().min(1) });

/** POST /billing/payment-method/confirm. */
export const confirmSetupSchema = z.object({ setupIntentId: z.string().min(1, "setupIntentId is required").max(255) });
export const confirmedSetupSchema = z.object({ hasPaymentMethod: z.boolean() });

/** POST /billing/add-funds: `idempotencyKey` (a nonce from the form) makes a double submit one charge. */
export const amountSchema = dollarAmount("Amount");
export const addFundsSchema = z.object({ amount: amountSchema, idempotencyKey: z.string().min(8).max(100).optional() });
export const addFundsResultSchema = z.object({ balance: z.number() });

/** POST /billing/auto-payment-config: answered with the new BillingConfig. */
export const autoPaymentSchema = z.object({
  enabled: z.boolean(),
  thresholdAmount: dollarAmount("Threshold amount").default(DEFAULT_THRESHOLD),
  rechargeAmount: dollarAmount("Recharge amount").default(DEFAULT_RECHARGE),
});
export type AutoPayment = z.infer<typeof autoPaymentSchema>;

/** The add-funds rule: the message of a refused amount, or null. */
export function amountError(amount: number): string | null {
  if (!Number.isFinite(amount)) return AMOUNT_REQUIRED;
  if (amount < MIN_AMOUNT) return AMOUNT_TOO_SMALL;
  if (amount > MAX_AMOUNT) return AMOUNT_TOO_LARGE;
  if (!hasAtMostCents(amount)) return AMOUNT_DECIMALS;
  return null;
}

/** The auto-payment rules (checked only when enabled, SPEC §5): the message of each refused field. */
export function autoPaymentErrors(input: { thresholdAmount: number; rechargeAmount: number }): Partial<Record<"thresholdAmount" | "rechargeAmount", string>> {
  const errors: Partial<Record<"thresholdAmount" | "rechargeAmount", string>> = {};
  const { thresholdAmount: threshold, rechargeAmount: recharge } = input;
  if (!Number.isFinite(threshold) || threshold < 0) errors.thresholdAmount = THRESHOLD_NEGATIVE;
  else if (threshold > MAX_AMOUNT) errors.thresholdAmount = THRESHOLD_TOO_LARGE;
  else if (!hasAtMostCents(threshold)) errors.thresholdAmount = decimalsMessage("Threshold amount");
  if (!Number.isFinite(recharge) || recharge < MIN_AMOUNT) errors.rechargeAmount = RECHARGE_TOO_SMALL;
  else if (recharge > MAX_AMOUNT) errors.rechargeAmount = RECHARGE_TOO_LARGE;
  else if (!hasAtMostCents(recharge)) errors.rechargeAmount = decimalsMessage("Recharge amount");
  return errors;
}

// ---- Issue 11, money in and out (B): strict amounts, the daily recharge limit ----

export function decimalsMessage(label: string): string {
  return `${label} must have at most 2 decimals`;
}
export function notANumberMessage(label: string): string {
  return `${label} must be a number`;
}
export const AMOUNT_DECIMALS = decimalsMessage("Amount");

/**
 * Dollars on the wire (DESIGN §3): a JSON number with at most 2 decimals. Nothing is coerced: `"10"`,
 * `"0x10"`, `[10]` and `true` are refused, as is `10.001`, each with a message that says why.
 */
export function dollarAmount(label: string) {
  return z
    .number({ required_error: `${label} is required`, invalid_type_error: notANumberMessage(label) })
    .finite(notANumberMessage(label))
    .refine(hasAtMostCents, decimalsMessage(label));
}

export const RECHARGE_PAUSED = "Automatic recharge paused";

/** "At most 3 automatic recharges a day": the limit as the auto-payment area states it. */
export function rechargeLimitText(perDay: number): string {
  return `At most ${perDay} automatic recharge${perDay === 1 ? "" : "s"} a day`;
}

/** Why a recharge was refused at the limit, as recorded with the account. */
export function rechargeCapReason(perDay: number): string {
  return `${perDay} recharge${perDay === 1 ? "" : "s"} today, the daily limit`;
}

/**
 * GET /billing/recharges: the daily limit, the last refused recharge until a charge succeeds again, and
 * the last automatic recharge the card declined (or that did not go through), until a payment succeeds
 * after it. `declined` is optional on the wire: a platform of an earlier contract does not send it.
 */
export const rechargeStatusSchema = z.object({
  rechargesPerDay: z.number().int(),
  paused: z.object({ at: z.string(), reason: z.string() }).nullable(),
  declined: z.object({ at: z.string(), amount: z.number() }).nullable().optional(),
});
export type RechargeStatus = z.infer<typeof rechargeStatusSchema>;

// ---- Spend control (issue 11, engineer A): the organization's monthly spend cap ----
export const SPEND_CAP_MAX = 10_000_000;
export const SPEND_CAP_NOT_A_NUMBER = "The monthly cap must be a number of dollars";
export const SPEND_CAP_TOO_SMALL = "The monthly cap must be more than $0";
export const SPEND_CAP_TOO_LARGE = `The monthly cap must be at most ${dollars(SPEND_CAP_MAX)}`;
export const SPEND_CAP_CENTS = "The monthly cap may have at most 2 decimals";
/** POST /billing/spend-cap (admins): dollars as a JSON number (never a string), or null for no cap. */
export const spendCapSchema = z.object({
  monthlyCap: z
    .number({ invalid_type_error: SPEND_CAP_NOT_A_NUMBER, required_error: SPEND_CAP_NOT_A_NUMBER })
    .finite(SPEND_CAP_NOT_A_NUMBER)
    .positive(SPEND_CAP_TOO_SMALL)
    .max(SPEND_CAP_MAX, SPEND_CAP_TOO_LARGE)
    .refine(hasAtMostCents, SPEND_CAP_CENTS)
    .nullable(),
});
export type SpendCapInput = z.infer<typeof spendCapSchema>;
/** GET and POST /billing/spend-cap: the cap, what the month has spent, what open requests hold. */
export const spendCapStateSchema = z.object({ monthlyCap: z.number().nullable(), spentThisMonth: z.number(), reserved: z.number() });
export type SpendCapState = z.infer<typeof spendCapStateSchema>;
