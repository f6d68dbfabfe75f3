import { z } from "zod";

/** The periods the usage report offers, in UTC days ending today. */
export const USAGE_PERIODS = [7, 30, 90] as const;
export type UsagePeriod = (typeof USAGE_PERIODS)[number];
export const DEFAULT_USAGE_PERIOD: UsagePeriod = 30;
export const USAGE_PERIOD_REFUSAL = "days: must be 7, 30 or 90";

/** GET /api/v1/usage?days=7|30|90 (30 when absent). */
export const usageQuerySchema = z.object({
  days: z
    .enum(["7", "30", "90"], { message: "must be 7, 30 or 90" })
    .default("30")
    .transform((v) => Number(v) as UsagePeriod),
});

/** Counts of one line of the usage report; completion tokens include reasoning tokens; cost in dollars. */
const figures = {
  requests: z.number(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  reasoningTokens: z.number(),
  cost: z.number(),
};
export const usageFiguresSchema = z.object(figures);
export type UsageFigures = z.infer<typeof usageFiguresSchema>;

export const SOURCE_KINDS = ["console", "api"] as const;

/** The active organization's chat usage over UTC days ending today. */
export const usageReportSchema = z.object({
  days: z.number(),
  /** First and last UTC day, `YYYY-MM-DD`, both included. */
  from: z.string(),
  to: z.string(),
  totals: usageFiguresSchema,
  /** One entry per UTC day, oldest first, days without usage as zeros. */
  daily: z.array(z.object({ date: z.string(), ...figures })),
  /** Per model, most expensive first (then most requested). */
  models: z.array(z.object({ model: z.string(), ...figures })),
  /** The console's chat, then each API token (public id; null once gone), busiest first. */
  sources: z.array(z.object({ kind: z.enum(SOURCE_KINDS), token: z.string().nullable(), ...figures })),
});
export type UsageReport = z.infer<typeof usageReportSchema>;
export type DailyUsage = UsageReport["daily"][number];
export type ModelUsage = UsageReport["models"][number];
export type SourceUsage = UsageReport["sources"][number];
