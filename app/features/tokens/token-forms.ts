import { z } from "zod";
import type { TokenSettings } from "@contract/tokens";
import { BUDGET_PERIODS, budgetAmountSchema, rateLimitRpmSchema, tokenVersionSchema } from "@contract/tokens";
import { rollTokenSchema } from "@contract/token-rotation";
import type { ExpiryChoice } from "./token-rules";
import { isExpiryChoice } from "./token-rules";

const EXPIRY_MESSAGE = "Choose an expiry: 1 day, 7 days, 30 days or never";

/**
 * A token's spend settings as form fields (issue 11): an empty budget or rate means none, no model
 * checked means every model. The rules are the contract's, so the form and the platform say the same.
 */
const settingsFields = {
  budgetAmount: budgetAmountSchema.optional(),
  budgetPeriod: z.enum(BUDGET_PERIODS).default("total"),
  allowedModels: z.array(z.string().max(100)).max(100).default([]),
  rateLimitRpm: rateLimitRpmSchema.optional(),
};

/** The create form (conform): any scopes (none required, SPEC §5), one of the expiry choices, optional settings. */
export const createTokenForm = z.object({
  intent: z.literal("create"),
  scopes: z.array(z.string().max(100)).max(50).default([]),
  expiry: z
    .string({ required_error: EXPIRY_MESSAGE })
    .refine(isExpiryChoice, EXPIRY_MESSAGE)
    .transform((v) => v as ExpiryChoice),
  ...settingsFields,
});

/** The settings form of one token (`?edit=publicId`). */
export const tokenSettingsForm = z.object({
  intent: z.literal("settings"),
  publicId: z.string().min(1).max(100),
  version: tokenVersionSchema,
  ...settingsFields,
});

type SettingsValues = { budgetAmount?: number; budgetPeriod: "total" | "month"; allowedModels: string[]; rateLimitRpm?: number; version?: string };

/** The platform's body of the form's values. */
export function settingsOf(values: SettingsValues): TokenSettings {
  return {
    budget: values.budgetAmount === undefined ? null : { amount: values.budgetAmount, period: values.budgetPeriod },
    allowedModels: values.allowedModels.length === 0 ? null : values.allowedModels,
    rateLimitRpm: values.rateLimitRpm ?? null,
    ...(values.version !== undefined && { version: values.version }),
  };
}

/** The platform names refused fields by the contract's paths; the form by its own names. */
export const SETTINGS_FORM_FIELD: Record<string, string> = {
  "budget.amount": "budgetAmount",
  "budget.period": "budgetPeriod",
  budget: "budgetAmount",
  allowedModels: "allowedModels",
  rateLimitRpm: "rateLimitRpm",
};

/** The page's one-button forms. */
export const tokenIntentForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("revoke"), publicId: z.string().min(1).max(100) }),
  z.object({ intent: z.literal("reset"), version: tokenVersionSchema }),
  z.object({ intent: z.literal("roll"), publicId: z.string().min(1).max(100) }).merge(rollTokenSchema),
]);
