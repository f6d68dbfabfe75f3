/**
 * Days and times in a viewer's time zone (the client-hint cookie, UTC without it), for the console and
 * the platform alike: the ledger's CSV writes timestamps with the zone's offset and reads its range as
 * the zone's local days, and the audit page's filters are local days too.
 */

/** Zones asked about, and the answer: every page asks for its viewer's, and building a formatter to find out costs more than the rest of the check. */
const checked = new Map<string, string>();

/** The zone if the runtime knows it, else UTC. */
export function knownZone(tz: string | undefined): string {
  if (!tz) return "UTC";
  let zone = checked.get(tz);
  if (zone === undefined) {
    try {
      zone = new Intl.DateTimeFormat("en-US", { timeZone: tz }).resolvedOptions().timeZone;
    } catch {
      zone = "UTC";
    }
    // A cookie can say anything: the set stays bounded.
    if (checked.size >= 1_000) checked.clear();
    checked.set(tz, zone);
  }
  return zone;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(tz, f);
  }
  return f;
}

function wallClock(ms: number, tz: string) {
  const parts = Object.fromEntries(
    formatter(tz)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return { year: +parts.year, month: +parts.month, day: +parts.day, hour: +parts.hour, minute: +parts.minute, second: +parts.second };
}

/** The zone's offset from UTC at that instant, in minutes (east positive). */
function offsetMinutes(ms: number, tz: string): number {
  const w = wallClock(ms, tz);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** `2026-11-23T14:05:09.123+01:00` (`Z` in UTC). */
export function zonedIso(ms: number, tz: string): string {
  const offset = offsetMinutes(ms, tz);
  const local = new Date(ms + offset * 60_000);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  const suffix = offset === 0 ? "Z" : `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  return `${local.toISOString().slice(0, 23)}${suffix}`;
}

/**
 * The instant a local day (`YYYY-MM-DD`) starts in the zone: its local midnight, or, where the clocks
 * skip midnight (Havana, Santiago: 23:59:59 is followed by 01:00), the change itself.
 */
export function zonedDayStart(day: string, tz: string): number {
  const [y, m, d] = day.split("-").map(Number);
  const utcMidnight = Date.UTC(y, m - 1, d);
  let guess = utcMidnight - offsetMinutes(utcMidnight, tz) * 60_000;
  // Once more at the guess: the offset may differ there (a daylight-saving change that night).
  guess = utcMidnight - offsetMinutes(guess, tz) * 60_000;
  if (zonedDay(guess, tz) >= day) return guess;
  // Midnight does not exist that day: the guess is still the day before's 23:00. The day begins at the
  // change, within the next few hours: found to the second (changes fall on whole seconds).
  let before = guess;
  let after = guess + 3 * 3_600_000;
  while (after - before > 1_000) {
    const middle = before + Math.floor((after - before) / 2_000) * 1_000;
    if (zonedDay(middle, tz) >= day) after = middle;
    else before = middle;
  }
  return after;
}

/** The day after a `YYYY-MM-DD` day: a range of days that ends with `day` stops where it starts. */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** The local day (`YYYY-MM-DD`) an instant falls on in the zone. */
export function zonedDay(ms: number, tz: string): string {
  const w = wallClock(ms, tz);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}
