import { z } from "zod";
import { idToFind } from "./ids";
import { ROLES } from "./team";

/** The platform's session cookie (httpOnly, SameSite=Lax, path /): the console clears it itself when the platform can't. */
export const SESSION_COOKIE = "sid";

/** The entities of the /api/v1 contract's session (SPEC §3, DESIGN §3). */
export const organizationRefSchema = z.object({ id: z.number(), name: z.string() });
export type OrganizationRef = z.infer<typeof organizationRefSchema>;

/** GET /api/v1/auth/session. */
export const sessionSchema = z.discriminatedUnion("valid", [
  z.object({ valid: z.literal(false) }),
  z.object({
    valid: z.literal(true),
    user: z.object({ id: z.number(), name: z.string(), email: z.string() }),
    organizations: z.array(organizationRefSchema),
    activeOrganization: organizationRefSchema.extend({ hasPaymentMethod: z.boolean().default(false) }).nullable(),
    activeRole: z.enum(ROLES).nullable(),
  }),
]);
export type Session = z.infer<typeof sessionSchema>;
export type ValidSession = Extract<Session, { valid: true }>;

/** GET /api/v1/auth/providers. */
export const providersSchema = z.object({ devSignin: z.boolean() });

/** POST /api/v1/auth/switch. */
export const switchOrganizationSchema = z.object({ organizationId: idToFind.text });

/** `{ok: true}`: what a call with nothing else to say answers. */
export const okSchema = z.object({ ok: z.literal(true) });
export type Ok = z.infer<typeof okSchema>;
