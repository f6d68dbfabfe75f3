import { describe, expect, it } from "vitest";
import { knownZone, nextDay, zonedDay, zonedDayStart, zonedIso } from "./zone";

describe("a local day in a time zone", () => {
  it("starts at its local midnight, across daylight-saving changes at 02:00 and odd offsets", () => {
    expect(zonedDayStart("2026-07-01", "America/New_York")).toBe(Date.UTC(2026, 6, 1, 4));
    expect(zonedDayStart("2026-03-08", "America/New_York")).toBe(Date.UTC(2026, 2, 8, 5));
    expect(zonedDayStart("2026-03-09", "America/New_York")).toBe(Date.UTC(2026, 2, 9, 4));
    expect(zonedDayStart("2026-11-01", "America/New_York")).toBe(Date.UTC(2026, 10, 1, 4));
    expect(zonedDayStart("2026-03-29", "Europe/London")).toBe(Date.UTC(2026, 2, 29, 0));
    expect(zonedDayStart("2026-11-25", "Asia/Kathmandu")).toBe(Date.UTC(2026, 10, 24, 18, 15));
    expect(zonedDayStart("2026-11-25", "Pacific/Kiritimati")).toBe(Date.UTC(2026, 10, 24, 10));
  });

  it("starts at the change where the clocks skip midnight (audit O, O6)", () => {
    // Havana, 8 March 2026: 23:59:59 (-05:00) is followed by 01:00 (-04:00).
    const havana = zonedDayStart("2026-03-08", "America/Havana");
    expect(havana).toBe(Date.UTC(2026, 2, 8, 5));
    expect(zonedDay(havana, "America/Havana")).toBe("2026-03-08");
    expect(zonedDay(havana - 1_000, "America/Havana")).toBe("2026-03-07");
    expect(zonedIso(havana, "America/Havana")).toBe("2026-03-08T01:00:00.000-04:00");
    // A 23:30 entry on 7 March is in the 7th's day, not the 8th's.
    expect(Date.UTC(2026, 2, 8, 4, 30)).toBeLessThan(havana);
    // Santiago, 6 September 2026: the same at 04:00Z.
    expect(zonedDayStart("2026-09-06", "America/Santiago")).toBe(Date.UTC(2026, 8, 6, 4));
  });

  it("falls back to UTC for a zone the runtime does not know", () => {
    expect(knownZone("Etc/Unknown")).toBe("UTC");
    expect(knownZone(undefined)).toBe("UTC");
    expect(knownZone("Europe/Paris")).toBe("Europe/Paris");
  });
});

describe("the day after a day", () => {
  it("crosses months, years and leap days, as a range's end does", () => {
    expect(nextDay("2025-03-04")).toBe("2025-03-05");
    expect(nextDay("2025-01-31")).toBe("2025-02-01");
    expect(nextDay("2024-02-28")).toBe("2024-02-29");
    expect(nextDay("2025-02-28")).toBe("2025-03-01");
    expect(nextDay("2025-12-31")).toBe("2026-01-01");
  });
});
