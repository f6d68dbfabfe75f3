/** The system pages' wire is the contract's. */
export { PAYMENT_MODES } from "@contract/billing";
export type { PaymentMode } from "@contract/billing";
export { modelConfigListSchema, modelConfigSchema } from "@contract/models";
export type { ModelBody, ModelConfig } from "@contract/models";
export { ORGANIZATION_SEARCH_MAX, organizationListSchema, organizationSummarySchema } from "@contract/system";
export type { GrantCredit, OrganizationChange, OrganizationQuery, OrganizationSummary } from "@contract/system";
