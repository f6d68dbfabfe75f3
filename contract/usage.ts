import { z } from "zod";
import { pastIdsFindNothing, urlNumber } from "./ids";

/** The periods the usage report offers, in UTC days ending today. */
export const USAGE_PERIODS = [7, 30, 90] as const;
export type UsagePeriod = (typeof USAGE_PERIODS)[number];
/** The period of a report that names none (or, on /usage, another). */
export const DEFAULT_USAGE_PERIOD: UsagePeriod = 30;
/** The refusal of any other `days`, under its field (the error line reads "days: …"). */
export const USAGE_PERIOD_REFUSAL = "must be 7, 30 or 90";

/** A GET form sends an unchosen select or empty date as `name=`: the same as leaving it out. */
function blankAsAbsent<T extends z.ZodTypeAny>(schema: T) {
  return z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim() : v), schema);
}

/** GET /api/v1/usage?days=7|30|90 (30 when absent). */
export const usageQuerySchema = z.object({
  days: z
    .enum(["7", "30", "90"], { message: USAGE_PERIOD_REFUSAL })
    .default(`${DEFAULT_USAGE_PERIOD}`)
    .transform((v) => Number(v) as UsagePeriod),
});

/**
 * The filters of the usage report and its CSV (issue 16), each optional: one model, one API token (by
 * public id), one member (user id: that member's chats in the console; someone who has left counts as
 * long as they chatted in the organization, decision 0140). A token or member the organization does not
 * have is answered 404.
 */
export const usageFiltersSchema = z.object({
  model: blankAsAbsent(z.string().max(200).optional()),
  token: blankAsAbsent(z.string().max(200).optional()),
  member: blankAsAbsent(urlNumber("must be a member id").pipe(z.number().positive("must be a member id")).transform(pastIdsFindNothing).optional()),
});
export type UsageFilters = z.infer<typeof usageFiltersSchema>;
export const usageFilteredQuerySchema = usageQuerySchema.merge(usageFiltersSchema);
export const USAGE_TOKEN_NOT_FOUND = "Token not found";
export const USAGE_MEMBER_NOT_FOUND = "Member not found";

/** GET /api/v1/usage/token-spend: what each API token spent this UTC calendar month, in dollars. */
export const tokenSpendSchema = z.object({
  /** `YYYY-MM`, UTC. */
  month: z.string(),
  tokens: z.array(z.object({ token: z.string(), spent: z.number() })),
});
export type TokenSpend = z.infer<typeof tokenSpendSchema>;

/** GET /api/v1/billing/ledger/export?from=&to=&tz=: local days of `tz` (the screen's zone), both included. */
const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD")
  .refine((v) => {
    const date = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === v;
  }, "must be a date YYYY-MM-DD");
export const ledgerExportQuerySchema = z.object({
  from: blankAsAbsent(isoDay.optional()),
  to: blankAsAbsent(isoDay.optional()),
  tz: blankAsAbsent(z.string().max(100).optional()),
});
export type LedgerExportQuery = z.infer<typeof ledgerExportQuerySchema>;

/**
 * GET /api/v1/usage/export: the report's query, and `to`, the window's last UTC day as the screen showed
 * it (audit O, O9): a page read before midnight and exported after gives the same days. Never later
 * than today; absent, today.
 */
export const usageExportQuerySchema = usageFilteredQuerySchema.extend({ to: blankAsAbsent(isoDay.optional()) });
export type UsageExportQuery = z.infer<typeof usageExportQuerySchema>;
/** The header rows of the two CSV files (issue 16). */
export const LEDGER_CSV_HEADER = ["id", "timestamp", "description", "model", "rate_card_id", "change_usd"] as const;
export const USAGE_CSV_HEADER = [
  "timestamp_utc",
  "receipt_id",
  "model",
  "source",
  "token",
  "member",
  "prompt_tokens",
  "completion_tokens",
  "reasoning_tokens",
  "cost_usd",
  "estimated",
  "outcome",
] as const;

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
  /** The console's chat per member (user id and name), busiest first. */
  members: z.array(z.object({ member: z.number(), name: z.string().nullable(), ...figures })).default([]),
  /**
   * Who of those the report names (its member rows, the member it is filtered by) is no longer a member
   * of the organization (user id, and name: null once the account is gone), so a departed person's chats
   * can be told apart and filtered by (decision 0140). Optional on the wire: absent, none is known to have left.
   */
  formerMembers: z.array(z.object({ member: z.number(), name: z.string().nullable() })).optional(),
});
export type UsageReport = z.infer<typeof usageReportSchema>;
export type DailyUsage = UsageReport["daily"][number];
export type ModelUsage = UsageReport["models"][number];
export type SourceUsage = UsageReport["sources"][number];
export type MemberUsage = UsageReport["members"][number];
