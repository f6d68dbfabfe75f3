import { z } from "zod";

/** A token as the contract lists it (SPEC §3, DESIGN §3): never its secret. */
export const tokenSchema = z.object({
  publicId: z.string(),
  scopes: z.array(z.string()),
  expiresAt: z.number().nullable(),
  revoked: z.boolean(),
  createdAt: z.number(),
  primary: z.boolean().default(false),
  lastUsedAt: z.number().nullable().default(null),
});
export type ApiToken = z.infer<typeof tokenSchema>;

/** Creation and reset answer the same, plus the secret, shown once. */
export const createdTokenSchema = tokenSchema.extend({ token: z.string() });
export const tokenListSchema = z.array(tokenSchema);
export const scopeListSchema = z.array(z.string());
