import { z } from "zod";

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

/** Invite codes (SPEC §3): one join, or any number until replaced. */
export const INVITE_KINDS = ["single-use", "multi-use"] as const;
export const inviteKindSchema = z.enum(INVITE_KINDS);
export type InviteKind = z.infer<typeof inviteKindSchema>;

/** POST /api/v1/organizations/invites (the kind travels as `status`, SPEC §7). */
export const createInviteSchema = z.object({ status: inviteKindSchema });
export const inviteSchema = z.object({ code: z.string(), kind: inviteKindSchema }).passthrough();
export type Invite = z.infer<typeof inviteSchema>;
