import { formatMoney } from "@contract/money";
import { pageCursor } from "~/lib/keyset-page";
import type { UsagePeriod } from "@contract/usage";
import { DEFAULT_USAGE_PERIOD, USAGE_PERIODS } from "@contract/usage";
import { MEMBER_SEARCH_MAX } from "@contract/team";
import type { UsageFigures } from "~/platform/usage";

/** The periods offered on /usage (`?days=`), and the one shown when the URL names none or another. */
export { USAGE_PERIODS, type UsagePeriod };

/** What the daily chart measures (`?chart=`). */
export const CHART_METRICS = ["tokens", "cost"] as const;
export type ChartMetric = (typeof CHART_METRICS)[number];

export const EMPTY_USAGE = "No usage in this period.";
export const USAGE_LOAD_ERROR = "Failed to load usage";

export function periodFrom(value: string | null): UsagePeriod {
  return USAGE_PERIODS.find((days) => String(days) === value) ?? DEFAULT_USAGE_PERIOD;
}

export function metricFrom(value: string | null): ChartMetric {
  return CHART_METRICS.find((m) => m === value) ?? "tokens";
}

/** What /usage is narrowed to (issue 16), from the URL: `?model=&token=&member=`; absent or blank is none. */
export interface UsageFilterValues {
  model?: string;
  token?: string;
  member?: number;
}
export const FILTER_NAMES = ["model", "token", "member"] as const;

export function filtersFrom(params: URLSearchParams): UsageFilterValues {
  const text = (name: string) => params.get(name)?.trim().slice(0, 200) || undefined;
  // A member id written in digits, as the platform reads it (decision 0140): `0x2` is no member.
  return { model: text("model"), token: text("token"), member: pageCursor(text("member") ?? null) };
}

/**
 * The member filter's choices: an organization of more members than this picks from a search (`?who=`,
 * by name or email) rather than from every member (decision 0138).
 */
export const MEMBER_CHOICES = 100;

/** The member search of the filters (`?who=`), trimmed; absent or blank is none. */
export function memberSearchFrom(params: URLSearchParams): string | undefined {
  return params.get("who")?.trim().slice(0, MEMBER_SEARCH_MAX) || undefined;
}

export function hasFilters(filters: UsageFilterValues): boolean {
  return FILTER_NAMES.some((name) => filters[name] !== undefined);
}

/** The filters as query parameters, in a fixed order, leaving out the unset ones. */
export function filterParams(filters: UsageFilterValues, params = new URLSearchParams()): URLSearchParams {
  for (const name of FILTER_NAMES) if (filters[name] !== undefined) params.set(name, String(filters[name]));
  return params;
}

/**
 * The query string of a period, chart and filters, leaving out defaults: `?days=7&chart=cost&token=tok_1`;
 * `who`, the member search the member choices come from, goes last.
 */
export function usageSearch(days: UsagePeriod, metric: ChartMetric, filters: UsageFilterValues = {}, who?: string): string {
  const params = new URLSearchParams({ days: String(days) });
  if (metric !== "tokens") params.set("chart", metric);
  filterParams(filters, params);
  if (who) params.set("who", who);
  return `?${params}`;
}

/**
 * The CSV of the view on screen: its period and filters, and the last day it showed (`to`), so that a
 * page read before UTC midnight and exported after it gives the same days (audit O, O9).
 */
export function usageCsvHref(days: UsagePeriod, filters: UsageFilterValues, lastDay: string | undefined): string {
  const params = filterParams(filters, new URLSearchParams({ days: String(days) }));
  if (lastDay) params.set("to", lastDay);
  return `/usage.csv?${params}`;
}

const count = new Intl.NumberFormat("en-US");
const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

/** Counts thousands-separated: `12,345`. */
export function formatCount(value: number): string {
  return count.format(value);
}

/** Short counts for tight spots: `950`, `1.2K`, `3.4M`. */
export function formatCompact(value: number): string {
  return compact.format(value);
}

/** Prompt plus completion tokens (completion already counts the reasoning). */
export function totalTokens(figures: Pick<UsageFigures, "promptTokens" | "completionTokens">): number {
  return figures.promptTokens + figures.completionTokens;
}

export function metricValue(figures: UsageFigures, metric: ChartMetric): number {
  return metric === "cost" ? figures.cost : totalTokens(figures);
}

export function formatMetric(value: number, metric: ChartMetric): string {
  return metric === "cost" ? formatMoney(value) : `${formatCount(value)} ${value === 1 ? "token" : "tokens"}`;
}

/** A UTC day `2025-01-05` as `5 Jan` (`5 Jan 2025` with the year): the same text on server and browser. */
export function formatDay(date: string, withYear = false): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime())) return date;
  return new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "short", ...(withYear ? { year: "numeric" } : {}) }).format(parsed);
}

/**
 * Bar heights in percent of the busiest day. A day with any usage gets at least `minimum` percent so it
 * stays visible next to a far busier one; a day without usage gets none.
 */
export function barHeights(values: number[], minimum = 2): number[] {
  const max = Math.max(0, ...values);
  if (max <= 0) return values.map(() => 0);
  return values.map((v) => (v <= 0 ? 0 : Math.max(minimum, Math.round((v / max) * 1000) / 10)));
}

/**
 * Which day labels the chart prints under its bars: all of 7, every 5th of 30, every 15th of 90 (the last
 * always); `sparser` times as few on a narrow screen, where the labels would run together.
 */
export function labelledDays(length: number, sparser = 1): Set<number> {
  const step = (length <= 7 ? 1 : length <= 30 ? 5 : 15) * sparser;
  const shown = new Set<number>();
  for (let i = length - 1; i >= 0; i -= step) shown.add(i);
  return shown;
}

/** A row of the per-source table: the console's chat or an API token. */
/**
 * A member as the per-member table and the Member select name them: someone who has left the
 * organization is said to have (decision 0140); an account that is gone has no name left.
 */
export function memberLabel(member: { member: number; name: string | null }, former = false): string {
  if (member.name === null) return `Former member #${member.member}`;
  return former ? `${member.name} (former member)` : member.name;
}

export function sourceLabel(source: { kind: "console" | "api"; token: string | null }): string {
  if (source.kind === "console") return "Console chat";
  return source.token ? `API token ${source.token}` : "API token (deleted)";
}
