import { z } from "zod";

/** Counts of one line of the usage report; completion tokens include reasoning tokens. */
const figures = {
  requests: z.number(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  reasoningTokens: z.number(),
  cost: z.number(),
};
export const usageFiguresSchema = z.object(figures);
export type UsageFigures = z.infer<typeof usageFiguresSchema>;

/** GET /api/v1/usage?days=7|30|90: the active organization's chat usage over UTC days ending today. */
export const usageReportSchema = z.object({
  days: z.number(),
  from: z.string(),
  to: z.string(),
  totals: usageFiguresSchema,
  daily: z.array(z.object({ date: z.string(), ...figures })),
  models: z.array(z.object({ model: z.string(), ...figures })),
  sources: z.array(z.object({ kind: z.enum(["console", "api"]), token: z.string().nullable(), ...figures })),
});
export type UsageReport = z.infer<typeof usageReportSchema>;
export type DailyUsage = UsageReport["daily"][number];
export type ModelUsage = UsageReport["models"][number];
export type SourceUsage = UsageReport["sources"][number];
