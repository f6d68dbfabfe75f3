/** The tokens wire is the contract's (SPEC §3, DESIGN §3). */
export { createdTokenSchema, scopeListSchema, tokenListSchema, tokenSchema } from "@contract/tokens";
export type { ApiToken } from "@contract/tokens";
