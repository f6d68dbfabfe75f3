import { z } from "zod";
import { dollars, hasAtMostCents } from "./money";

/** The scope names the public API checks (SPEC §7 GET /tokens/scopes). */
export const TOKEN_SCOPES = ["chat", "models:read", "images", "audio"] as const;

/** A token as the contract lists it (SPEC §3, DESIGN §3): never its secret. */
export const tokenSchema = z.object({
  publicId: z.string(),
  scopes: z.array(z.string()),
  /** Epoch milliseconds, or null for a token that never expires. */
  expiresAt: z.number().nullable(),
  revoked: z.boolean(),
  createdAt: z.number(),
  primary: z.boolean().default(false),
  lastUsedAt: z.number().nullable().default(null),
  /** Spend control (issue 11): the budget with what counts against it (this month for monthly budgets). */
  budget: z
    .object({ amount: z.number(), period: z.enum(["total", "month"]), spent: z.number() })
    .nullable()
    .default(null),
  /** null: every model. */
  allowedModels: z.array(z.string()).nullable().default(null),
  rateLimitRpm: z.number().nullable().default(null),
  /** After a roll (issue 16): until when the previous secret still works (epoch ms); absent once it doesn't. */
  previousSecretExpiresAt: z.number().optional(),
  /**
   * An opaque version of the token's secret and settings (decision 0139): a roll, a reset or a settings
   * save that sends an older one is refused 409 (TOKEN_CHANGED) and changes nothing. Never the secret.
   */
  version: z.string().optional(),
  /**
   * Who made the token (GET /tokens says; an older platform, and the other answers, leave it out): null
   * for the primary token, which is the organization's, and for one whose maker is gone or was no user.
   * So an admin finds the tokens a member made, who keep working after the member is removed.
   */
  createdBy: z.object({ id: z.number(), name: z.string() }).nullable().optional(),
});
export type ApiToken = z.infer<typeof tokenSchema>;

/** Creation and reset answer the same, plus the secret, shown once. */
export const createdTokenSchema = tokenSchema.extend({ token: z.string() });
export type CreatedApiToken = z.infer<typeof createdTokenSchema>;
export const tokenListSchema = z.array(tokenSchema);
export const scopeListSchema = z.array(z.string());

// ---- Spend control (issue 11): a token's budget, allow-list and request rate ----
export const BUDGET_PERIODS = ["total", "month"] as const;
export const BUDGET_MAX = 1_000_000;
export const ALLOWED_MODELS_MAX = 100;
export const RATE_LIMIT_RPM_MAX = 100_000;
export const BUDGET_NOT_A_NUMBER = "The budget must be a number of dollars";
export const BUDGET_TOO_SMALL = "The budget must be more than $0";
export const BUDGET_TOO_LARGE = `The budget must be at most ${dollars(BUDGET_MAX)}`;
export const BUDGET_CENTS = "The budget may have at most 2 decimals";
export const RPM_RULE = `Requests per minute must be a whole number from 1 to ${RATE_LIMIT_RPM_MAX.toLocaleString("en-US")}`;

/** Dollars as a JSON number only (no strings or booleans coerced), more than 0, at most 2 decimals. */
export const budgetAmountSchema = z
  .number({ invalid_type_error: BUDGET_NOT_A_NUMBER, required_error: BUDGET_NOT_A_NUMBER })
  .finite(BUDGET_NOT_A_NUMBER)
  .positive(BUDGET_TOO_SMALL)
  .max(BUDGET_MAX, BUDGET_TOO_LARGE)
  .refine(hasAtMostCents, BUDGET_CENTS);
export const budgetSchema = z.object({ amount: budgetAmountSchema, period: z.enum(BUDGET_PERIODS) });
export const allowedModelsSchema = z.array(z.string().trim().min(1).max(100)).min(1, "Choose at least one model, or allow every model").max(ALLOWED_MODELS_MAX);
export const rateLimitRpmSchema = z.number({ invalid_type_error: RPM_RULE }).int(RPM_RULE).min(1, RPM_RULE).max(RATE_LIMIT_RPM_MAX, RPM_RULE);

/** PUT /api/v1/tokens/{publicId} (admins): every setting, null for none. */
/** The version a change was made from (a token's `version` as read); without it, the change applies as before. */
export const tokenVersionSchema = z.string().min(1).max(64).optional();
export const TOKEN_CHANGED =
  "This token was changed since this page was loaded (by another admin, or in another tab): nothing was changed. The page now shows it as it is.";

export const tokenSettingsSchema = z.object({
  budget: budgetSchema.nullable(),
  allowedModels: allowedModelsSchema.nullable(),
  rateLimitRpm: rateLimitRpmSchema.nullable(),
  version: tokenVersionSchema,
});
/** POST /organizations/reset-token: optionally, the primary token's version as read. */
export const resetTokenSchema = z.object({ version: tokenVersionSchema }).default({});
export type TokenSettings = z.infer<typeof tokenSettingsSchema>;

/** POST /api/v1/tokens. Unknown scopes are refused by name by the platform; the settings are optional. */
export const createTokenSchema = z.object({
  scopes: z.array(z.string().max(100)).max(50).default([]),
  expiresAt: z.number().int("expiresAt must be epoch milliseconds").positive().nullable(),
  budget: budgetSchema.nullable().optional(),
  allowedModels: allowedModelsSchema.nullable().optional(),
  rateLimitRpm: rateLimitRpmSchema.nullable().optional(),
});
export type CreateToken = z.infer<typeof createTokenSchema>;

export const tokenParamSchema = z.object({ publicId: z.string().min(1).max(200) });
