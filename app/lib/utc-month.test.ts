import { describe, expect, it } from "vitest";
import { utcMonthStart, utcMonthStartText } from "./utc-month";

describe("the UTC month that caps, budgets and This month count", () => {
  it("begins on the 1st at 00:00 UTC, whatever the viewer's zone", () => {
    expect(utcMonthStart(Date.UTC(2026, 10, 25, 12, 30))).toBe(Date.UTC(2026, 10, 1));
    expect(utcMonthStart(Date.UTC(2026, 10, 1))).toBe(Date.UTC(2026, 10, 1));
    expect(utcMonthStart(Date.UTC(2026, 9, 31, 23, 59, 59, 999))).toBe(Date.UTC(2026, 9, 1));
  });

  it("is said in UTC, and in the viewer's time where that differs", () => {
    const now = Date.UTC(2026, 10, 25, 12, 30);
    expect(utcMonthStartText(now, "UTC")).toBe("01 Nov 2026, 00:00 UTC");
    expect(utcMonthStartText(now, "Europe/London")).toBe("01 Nov 2026, 00:00 UTC");
    expect(utcMonthStartText(now, "America/Los_Angeles")).toBe("01 Nov 2026, 00:00 UTC (31 Oct 2026, 17:00 your time)");
    expect(utcMonthStartText(now, "Pacific/Auckland")).toBe("01 Nov 2026, 00:00 UTC (01 Nov 2026, 13:00 your time)");
    expect(utcMonthStartText(now, "Etc/Unknown")).toBe("01 Nov 2026, 00:00 UTC");
  });
});
