/** The usage wire is the contract's. */
export { usageFiguresSchema, usageReportSchema } from "@contract/usage";
export type { DailyUsage, MemberUsage, ModelUsage, SourceUsage, UsageFigures, UsageReport } from "@contract/usage";
