/** The usage wire is the contract's. */
export { usageFiguresSchema, usageReportSchema } from "@contract/usage";
export type { DailyUsage, ModelUsage, SourceUsage, UsageFigures, UsageReport } from "@contract/usage";
