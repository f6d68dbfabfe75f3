import { describe, expect, it } from "vitest";
import { knownZone } from "./time-zone";

describe("knownZone", () => {
  it("keeps a zone the runtime knows", () => {
    expect(knownZone("Europe/Paris")).toBe("Europe/Paris");
    expect(knownZone("America/New_York")).toBe("America/New_York");
    expect(knownZone("UTC")).toBe("UTC");
  });

  it("falls back to UTC for what the runtime refuses, every time", () => {
    expect(knownZone("Etc/Unknown")).toBe("UTC");
    expect(knownZone("Etc/Unknown")).toBe("UTC");
    expect(knownZone("Mars/Olympus")).toBe("UTC");
    expect(knownZone("")).toBe("UTC");
    expect(knownZone(undefined)).toBe("UTC");
    expect(knownZone(null)).toBe("UTC");
  });
});
