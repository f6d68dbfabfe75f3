import { z } from "zod";

/** The entities of the /api/v1 contract the console reads (SPEC §3, DESIGN §3). */
export const organizationRef = z.object({ id: z.number(), name: z.string() });

export const sessionSchema = z.discriminatedUnion("valid", [
  z.object({ valid: z.literal(false) }),
  z.object({
    valid: z.literal(true),
    user: z.object({ id: z.number(), name: z.string(), email: z.string() }),
    organizations: z.array(organizationRef),
    activeOrganization: organizationRef.extend({ hasPaymentMethod: z.boolean().default(false) }).nullable(),
    activeRole: z.enum(["admin", "member"]).nullable(),
  }),
]);

export type Session = z.infer<typeof sessionSchema>;
export type ValidSession = Extract<Session, { valid: true }>;
export type OrgSession = ValidSession & { activeOrganization: NonNullable<ValidSession["activeOrganization"]>; activeRole: "admin" | "member" };

export const orgConfigSchema = z.object({ orgSignupEnabled: z.boolean() });
export const createdOrgSchema = z.object({ id: z.number() }).passthrough();
export const inviteSchema = z.object({ code: z.string() }).passthrough();
export const okSchema = z.unknown();
export const devSigninSchema = z.object({ devSignin: z.boolean() });
