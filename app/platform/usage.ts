/** The usage wire is the contract's. */
export { usageFiguresSchema, usageReportSchema } from "@contract/usage";
export type { DailyUsage, MemberUsage, ModelUsage, SourceUsage, UsageFigures, UsageReport } from "@contract/usage";

/** What /tokens says when each token's spend this month could not be loaded. */
export const TOKEN_SPEND_LOAD_ERROR = "Failed to load token spend";
