/**
 * A time zone named by the browser (the client-hint cookie) or a query: what the runtime knows, else
 * UTC. Chrome reports `Etc/Unknown` when it can't detect the zone, and a cookie can say anything, so a
 * name is checked before any `Intl.DateTimeFormat` is built from it (audit O3). The console and the
 * platform's CSVs share this rule, so a page and its export agree on the zone.
 */
const checked = new Map<string, string>();

export function knownZone(tz: string | null | undefined): string {
  if (!tz) return "UTC";
  let zone = checked.get(tz);
  if (zone === undefined) {
    try {
      zone = new Intl.DateTimeFormat("en-US", { timeZone: tz }).resolvedOptions().timeZone;
    } catch {
      zone = "UTC";
    }
    // Names come from a cookie: keep the map small whatever is sent.
    if (checked.size >= 100) checked.clear();
    checked.set(tz, zone);
  }
  return zone;
}
