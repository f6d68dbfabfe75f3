/** The team wire is the contract's (SPEC §3). */
export { memberListSchema, memberSchema } from "@contract/team";
export type { Member, Role } from "@contract/team";
