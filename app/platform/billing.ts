import { z } from "zod";

/** The billing entities of the /api/v1 contract (SPEC §3, DESIGN §3). */
export const balanceSchema = z.number();

export const ledgerRowSchema = z.object({
  id: z.number(),
  timestamp: z.string(),
  description: z.string(),
  model: z.string().nullable(),
  rateCardId: z.string().nullable(),
  change: z.number(),
});
export const ledgerSchema = z.array(ledgerRowSchema);
export type LedgerRow = z.infer<typeof ledgerRowSchema>;

export const paymentModeSchema = z.enum(["manual", "auto", "invoice"]);
export type PaymentMode = z.infer<typeof paymentModeSchema>;

export const billingConfigSchema = z.object({
  paymentMode: paymentModeSchema.default("manual"),
  autoPaymentConfig: z.object({ thresholdAmount: z.number(), rechargeAmount: z.number() }).nullable().default(null),
});
export type BillingConfig = z.infer<typeof billingConfigSchema>;

export const stripeConfigSchema = z.object({ stripePublicKey: z.string().min(1) });
export const paymentMethodSchema = z.object({ paymentMethod: z.object({ brand: z.string().nullable(), last4: z.string().nullable() }).nullable() });
export type PaymentMethodSummary = z.infer<typeof paymentMethodSchema>["paymentMethod"];
export const setupSchema = z.object({ clientSecret: z.string().min(1).optional() }).passthrough();
export const addFundsResultSchema = z.object({ balance: z.number() }).passthrough();
export const anySchema = z.unknown();
