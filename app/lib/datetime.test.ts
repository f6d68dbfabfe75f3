import { describe, expect, it } from "vitest";
import { formatDateTime } from "./datetime";

describe("formatDateTime", () => {
  it("formats in 24-hour time in the given zone, the same on every call", () => {
    const at = Date.UTC(2026, 10, 23, 17, 5);
    expect(formatDateTime(at, "UTC")).toBe("23 Nov 2026, 17:05");
    expect(formatDateTime(at, "America/New_York")).toBe("23 Nov 2026, 12:05");
    expect(formatDateTime(new Date(at), "UTC")).toBe("23 Nov 2026, 17:05");
    expect(formatDateTime("not a date", "UTC")).toBe("");
  });

  it("shows UTC for a zone the runtime refuses, such as Chrome's Etc/Unknown", () => {
    const at = Date.UTC(2026, 10, 23, 17, 5);
    expect(formatDateTime(at, "Etc/Unknown")).toBe("23 Nov 2026, 17:05");
    expect(formatDateTime(at, "Nowhere/Else")).toBe("23 Nov 2026, 17:05");
  });
});
