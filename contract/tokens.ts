import { z } from "zod";

/** The scope names the public API checks (SPEC §7 GET /tokens/scopes). */
export const TOKEN_SCOPES = ["chat", "models:read", "images", "audio"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

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
});
export type ApiToken = z.infer<typeof tokenSchema>;

/** Creation and reset answer the same, plus the secret, shown once. */
export const createdTokenSchema = tokenSchema.extend({ token: z.string() });
export type CreatedApiToken = z.infer<typeof createdTokenSchema>;
export const tokenListSchema = z.array(tokenSchema);
export const scopeListSchema = z.array(z.string());

/** POST /api/v1/tokens. Unknown scopes are refused by name by the platform. */
export const createTokenSchema = z.object({
  scopes: z.array(z.string().max(100)).max(50).default([]),
  expiresAt: z.number().int("expiresAt must be epoch milliseconds").positive().nullable(),
});
export type CreateToken = z.infer<typeof createTokenSchema>;

export const tokenParamSchema = z.object({ publicId: z.string().min(1).max(200) });
