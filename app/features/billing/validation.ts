import { z } from "zod";
import { typedNumber } from "~/lib/parse-form";

import {
  amountError,
  autoPaymentErrors as contractAutoPaymentErrors,
  DEFAULT_RECHARGE,
  DEFAULT_THRESHOLD,
  MAX_AMOUNT,
  MIN_AMOUNT,
  RECHARGE_REQUIRED,
  RECHARGE_TOO_SMALL,
  THRESHOLD_NEGATIVE,
  THRESHOLD_REQUIRED,
} from "@contract/billing";

/** SPEC §5 and §9: the billing forms' rules (limits, messages and checks from the contract, shared with the platform). */
export { DEFAULT_RECHARGE, DEFAULT_THRESHOLD, MAX_AMOUNT, MIN_AMOUNT, RECHARGE_TOO_SMALL, THRESHOLD_NEGATIVE };
export const QUICK_AMOUNTS = [10, 25, 50] as const;

/** Add funds: at least $10 (and at most $10,000). Returns the error text, or null when valid. */
export function addFundsError(raw: unknown): string | null {
  return amountError(typedNumber(raw));
}

/**
 * What the form sends the platform: the amounts only when enabling. Switched off, the platform keeps the
 * amounts it has (its schema defaults absent ones and ignores them), so amounts the form did not check
 * (10.001, -1) cannot refuse turning auto-payment off.
 */
export type AutoPaymentInput = { enabled: true; thresholdAmount: number; rechargeAmount: number } | { enabled: false };

export type AutoPaymentErrors = Partial<Record<"thresholdAmount" | "rechargeAmount", string>>;

/** Auto-payment: checked only when enabled (SPEC §5). */
export function autoPaymentErrors(input: { enabled: boolean; thresholdAmount: unknown; rechargeAmount: unknown }): AutoPaymentErrors {
  if (!input.enabled) return {};
  const errors = contractAutoPaymentErrors({ thresholdAmount: typedNumber(input.thresholdAmount), rechargeAmount: typedNumber(input.rechargeAmount) });
  // A blank field is not a negative one: say what is missing (conform reads a blank field as absent).
  if (blank(input.thresholdAmount)) errors.thresholdAmount = THRESHOLD_REQUIRED;
  if (blank(input.rechargeAmount)) errors.rechargeAmount = RECHARGE_REQUIRED;
  return errors;
}

function blank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

/**
 * The add-funds form (conform, on server and browser): the amount's rule is `addFundsError`'s, so
 * both sides say the same words. The nonce makes a double submit one charge.
 */
export const addFundsForm = z.object({
  intent: z.literal("add-funds"),
  nonce: z.string().max(100).optional(),
  amount: z
    .unknown()
    .superRefine((value, ctx) => {
      const problem = addFundsError(value);
      if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
    })
    .transform(Number),
});

/** The auto-payment form (conform): a checkbox is absent when unchecked; amounts are checked only when enabled. */
export const autoPaymentForm = z
  .object({
    intent: z.literal("auto-payment"),
    enabled: z.unknown().transform((v) => v === true || v === "on" || v === "true"),
    // Left as typed (conform coerces only typed schemas): blank is refused when enabled; an absent field is the default.
    thresholdAmount: z.unknown(),
    rechargeAmount: z.unknown(),
  })
  .superRefine((v, ctx) => {
    for (const [field, message] of Object.entries(
      autoPaymentErrors({ enabled: v.enabled, thresholdAmount: v.thresholdAmount, rechargeAmount: v.rechargeAmount }),
    ))
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message });
  })
  .transform((v): AutoPaymentInput =>
    v.enabled
      ? {
          enabled: true,
          thresholdAmount: Number(v.thresholdAmount ?? DEFAULT_THRESHOLD) || 0,
          rechargeAmount: Number(v.rechargeAmount ?? DEFAULT_RECHARGE) || 0,
        }
      : { enabled: false },
  );

/**
 * The form's starting values: the saved amounts, or 20 and 10 when there are none. The toggle starts as
 * the balance card reads (`autoReloadEnabled`): in manual mode the platform keeps the last amounts, and
 * the dialog then opens switched off with them filled in, as the card says Disabled.
 */
export function autoPaymentDefaults(config: { paymentMode: string; autoPaymentConfig: { thresholdAmount: number; rechargeAmount: number } | null }) {
  return {
    enabled: autoReloadEnabled(config),
    thresholdAmount: config.autoPaymentConfig?.thresholdAmount ?? DEFAULT_THRESHOLD,
    rechargeAmount: config.autoPaymentConfig?.rechargeAmount ?? DEFAULT_RECHARGE,
  };
}

/** Auto-reload reads Enabled only when the mode is auto and a config exists (SPEC §2). */
export function autoReloadEnabled(config: { paymentMode: string; autoPaymentConfig: unknown }): boolean {
  return config.paymentMode === "auto" && config.autoPaymentConfig !== null;
}

/** The redirect back from the card form (SPEC §4): what the page does with it. */
export type SetupReturn = { kind: "none" } | { kind: "failed" } | { kind: "succeeded"; setupIntentId: string };

export function readSetupReturn(params: URLSearchParams): SetupReturn {
  const setupIntent = params.get("setup_intent");
  const status = params.get("redirect_status");
  if (!setupIntent && !status) return { kind: "none" };
  if (status === "succeeded" && setupIntent && params.get("setup_intent_client_secret")) return { kind: "succeeded", setupIntentId: setupIntent };
  return { kind: "failed" };
}
