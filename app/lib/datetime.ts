/**
 * One formatter per time zone: building an Intl.DateTimeFormat costs far more than formatting with
 * it, and a ledger or member list formats a date per row (decision 0087).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

const options: Intl.DateTimeFormatOptions = { year: "numeric", month: "short", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" };

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat("en-GB", { ...options, timeZone });
    } catch {
      // A zone the runtime refuses is UTC, as the root loader makes it (knownZone); kept under its
      // name, so a ledger page doesn't try it again for every row.
      formatter = new Intl.DateTimeFormat("en-GB", { ...options, timeZone: "UTC" });
    }
    // Time zones come from the browser's hint cookie: keep the map small whatever they send.
    if (formatters.size >= 100) formatters.clear();
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * Dates are shown in 24-hour local format (SPEC §9), in the viewer's time zone. A zone the runtime
 * refuses is UTC, as in the root loader: a date is never worth a page that fails (audit O3).
 */
export function formatDateTime(value: number | string | Date, timeZone: string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  return formatterFor(timeZone).format(date);
}
