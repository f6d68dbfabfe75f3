import { describe, expect, it } from "vitest";
import { csvLine, csvText, formatMicros } from "./csv";
import { knownZone, zonedDayStart, zonedIso } from "@contract/zone";

describe("CSV cells", () => {
  it("writes micro-dollars exactly, without floating point", () => {
    expect(formatMicros(0)).toBe("0.000000");
    expect(formatMicros(1_234_567)).toBe("1.234567");
    expect(formatMicros(-1_234)).toBe("-0.001234");
    expect(formatMicros(9_007_199_254_740_991)).toBe("9007199254.740991");
  });

  it("quotes separators and quotes, and defuses spreadsheet formulas in text", () => {
    expect(csvText('say "hi", then\nleave')).toBe('"say ""hi"", then\nleave"');
    expect(csvText("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvText("-2+3")).toBe("'-2+3");
    expect(csvText(null)).toBe("");
    expect(csvLine(["a,b", { raw: "-0.500000" }, null])).toBe('"a,b",-0.500000,\r\n');
  });
});

describe("time zones of the ledger file", () => {
  it("writes an instant with the zone's offset, daylight saving included", () => {
    expect(zonedIso(Date.UTC(2025, 0, 15, 12, 0, 0), "Europe/Paris")).toBe("2025-01-15T13:00:00.000+01:00");
    expect(zonedIso(Date.UTC(2025, 6, 15, 12, 0, 0), "Europe/Paris")).toBe("2025-07-15T14:00:00.000+02:00");
    expect(zonedIso(Date.UTC(2025, 0, 15, 12, 0, 0), "Asia/Kolkata")).toBe("2025-01-15T17:30:00.000+05:30");
    expect(zonedIso(Date.UTC(2025, 0, 15, 12, 0, 0), "UTC")).toBe("2025-01-15T12:00:00.000Z");
  });

  it("starts a local day at the zone's midnight, on the night clocks change too", () => {
    expect(zonedDayStart("2025-01-15", "America/New_York")).toBe(Date.UTC(2025, 0, 15, 5));
    // Clocks go forward at 02:00 on 9 March 2025 in New York: midnight is still at -05:00.
    expect(zonedDayStart("2025-03-09", "America/New_York")).toBe(Date.UTC(2025, 2, 9, 5));
    expect(zonedDayStart("2025-03-10", "America/New_York")).toBe(Date.UTC(2025, 2, 10, 4));
  });

  it("falls back to UTC for a zone the runtime does not know", () => {
    expect(knownZone("Mars/Olympus")).toBe("UTC");
    expect(knownZone(undefined)).toBe("UTC");
    expect(knownZone("Europe/Paris")).toBe("Europe/Paris");
  });
});
