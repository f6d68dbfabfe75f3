import { z } from "zod";
import { idToFind } from "./ids";
import { ROLES } from "./team";

/** The platform's session cookie (httpOnly, SameSite=Lax, path /): the console clears it itself when the platform can't. */
export const SESSION_COOKIE = "sid";

/**
 * The organization a console page was for, sent with the calls its action makes (decision 0139). The
 * active organization is the session's, shared by every tab: another tab could switch it between the
 * console's check of the page and the platform's call, and the call then acted on the other organization.
 * An organization-scoped call naming another organization than the active one is refused 409.
 */
export const PAGE_ORGANIZATION_HEADER = "x-page-organization";
export const ORGANIZATION_CHANGED =
  "Nothing was changed: another organization was made active in another tab while this was being sent. The page now shows the active organization.";

/** The entities of the /api/v1 contract's session (SPEC §3, DESIGN §3). */
export const organizationRefSchema = z.object({ id: z.number(), name: z.string() });

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
export const switchOrganizationSchema = z.object({ organizationId: idToFind.number });

/** `{ok: true}`: what a call with nothing else to say answers. */
export const okSchema = z.object({ ok: z.literal(true) });
export type Ok = z.infer<typeof okSchema>;
