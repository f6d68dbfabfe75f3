import { formatDateTime } from "./datetime";

/**
 * Spend caps, token budgets and the spend shown as "this month" count the calendar month in UTC (the
 * platform's month key, decision 0101), not the viewer's: in Los Angeles it ends at 16:00 or 17:00 on
 * the last day, in Auckland at 13:00 on the 1st. So the screens that show it say when it began.
 */
export function utcMonthStart(now: number): number {
  const today = new Date(now);
  return Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1);
}

/** "01 Nov 2026, 00:00 UTC (31 Oct 2026, 20:00 your time)", the viewer's time left out where it is the same. */
export function utcMonthStartText(now: number, timeZone: string): string {
  const start = utcMonthStart(now);
  const utc = formatDateTime(start, "UTC");
  const local = formatDateTime(start, timeZone);
  return local === utc ? `${utc} UTC` : `${utc} UTC (${local} your time)`;
}
