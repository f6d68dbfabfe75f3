import type { ValidSession } from "@contract/session";

/** The session wire is the contract's (SPEC §3, DESIGN §3). */
export { okSchema, providersSchema as devSigninSchema, sessionSchema } from "@contract/session";
export type { Session, ValidSession } from "@contract/session";
export { createdOrganizationSchema as createdOrgSchema, inviteSchema, orgConfigSchema } from "@contract/orgs";

/** A session with an active organization: what the organization pages' guards hand on. */
export type OrgSession = ValidSession & { activeOrganization: NonNullable<ValidSession["activeOrganization"]>; activeRole: "admin" | "member" };
