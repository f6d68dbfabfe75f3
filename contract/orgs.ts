import { z } from "zod";
import { afterId, beforeId, idFromUrl, pageLimit } from "./ids";

/** SPEC §3: organization names, as the welcome form, the platform and the system editor check them. */
export const ORGANIZATION_NAME_MAX = 100;
export const organizationName = z
  .string()
  .trim()
  .min(1, "Organization name is required")
  .max(ORGANIZATION_NAME_MAX, `Organization name must be at most ${ORGANIZATION_NAME_MAX} characters`);

/** GET /api/v1/organizations/config. */
export const orgConfigSchema = z.object({ orgSignupEnabled: z.boolean() });

/** POST /api/v1/organizations. */
export const createOrganizationSchema = z.object({ name: organizationName });
export const createdOrganizationSchema = z.object({ id: z.number(), name: z.string() }).passthrough();
export type CreatedOrganization = z.infer<typeof createdOrganizationSchema>;

/** Invite codes (SPEC §3): one join, or any number (up to an optional maximum) until revoked or expired. */
export const INVITE_KINDS = ["single-use", "multi-use"] as const;
export const inviteKindSchema = z.enum(INVITE_KINDS);
export type InviteKind = z.infer<typeof inviteKindSchema>;

/** Invite management limits (issue 14, decision 0090). */
export const INVITE_MAX_USES_LIMIT = 1000;
export const INVITE_MAX_LIFETIME_MS = 365 * 24 * 60 * 60 * 1000;
export const INVITE_MAX_USES_RULE = `Maximum uses must be a whole number from 1 to ${INVITE_MAX_USES_LIMIT.toLocaleString("en-US")}`;
export const INVITE_EXPIRY_RULE = "The expiry must be in the future and within a year";
export const INVITE_SINGLE_USE_RULE = "A single-use code has exactly one use";

/**
 * POST /api/v1/organizations/invites (the kind travels as `status`, SPEC §7). `expiresAt` (epoch ms)
 * and `maxUses` are optional (issue 14); a single-use code's maximum is always 1.
 */
export const createInviteSchema = z
  .object({
    status: inviteKindSchema,
    expiresAt: z.number({ invalid_type_error: INVITE_EXPIRY_RULE }).int(INVITE_EXPIRY_RULE).positive(INVITE_EXPIRY_RULE).nullable().optional(),
    maxUses: z
      .number({ invalid_type_error: INVITE_MAX_USES_RULE })
      .int(INVITE_MAX_USES_RULE)
      .min(1, INVITE_MAX_USES_RULE)
      .max(INVITE_MAX_USES_LIMIT, INVITE_MAX_USES_RULE)
      .nullable()
      .optional(),
  })
  .refine((v) => v.status === "multi-use" || v.maxUses == null || v.maxUses === 1, { message: INVITE_SINGLE_USE_RULE, path: ["maxUses"] });
export type CreateInvite = z.infer<typeof createInviteSchema>;
export const inviteSchema = z.object({ code: z.string(), kind: inviteKindSchema }).passthrough();
export type Invite = z.infer<typeof inviteSchema>;

/** An active invite as GET /api/v1/organizations/invites lists it (admins): never revoked, expired or used up. */
export const activeInviteSchema = z.object({
  id: z.number(),
  code: z.string(),
  kind: inviteKindSchema,
  createdAt: z.number(),
  createdBy: z.object({ id: z.number(), name: z.string() }),
  uses: z.number(),
  /** null: no limit (multi-use). */
  maxUses: z.number().nullable(),
  /** Epoch ms, or null for never. */
  expiresAt: z.number().nullable(),
});
export type ActiveInvite = z.infer<typeof activeInviteSchema>;
export const activeInviteListSchema = z.array(activeInviteSchema);
/** Active codes on one page of /team; the most one call lists. */
export const INVITE_PAGE_SIZE = 50;
export const INVITE_PAGE_MAX = 200;
/**
 * GET /api/v1/organizations/invites?before=&after=&limit=: the active codes, newest first, keyset
 * pages on the invite's id (`before`: older, `after`: newer, still newest first); without a limit the
 * newest INVITE_PAGE_MAX. A list, as the ledger's is.
 */
export const inviteQuerySchema = z.object({
  before: beforeId.optional(),
  after: afterId.optional(),
  limit: pageLimit(INVITE_PAGE_MAX).optional(),
});
export type InviteQuery = z.infer<typeof inviteQuerySchema>;

/** DELETE /api/v1/organizations/invites/{id}. */
export const inviteParamSchema = z.object({ id: idFromUrl });

/** What POST /auth/join/{code} answers for a code that can't be used (a 404, decision 0090). */
export const INVITE_INVALID = "This invite code is invalid or has already been used";
export const INVITE_EXPIRED = "This invite code has expired";
export const INVITE_REVOKED = "This invite code has been revoked";
