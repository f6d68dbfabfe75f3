/** The models wire is the contract's (SPEC §3). */
export { modelListSchema, modelSchema, statusMapSchema } from "@contract/models";
export type { Model } from "@contract/models";
