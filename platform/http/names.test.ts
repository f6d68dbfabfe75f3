import { describe, expect, it } from "vitest";
import { normalizeName, normalizeOrganizationName } from "./names";

describe("the name rule", () => {
  it("trims, NFC-normalizes and drops control and bidi characters", () => {
    expect(normalizeOrganizationName("  Acme  ")).toBe("Acme");
    expect(normalizeOrganizationName("Cafe\u0301")).toBe("Caf\u00e9");
    expect(normalizeOrganizationName("Ac\u0000me\n")).toBe("Acme");
    expect(normalizeOrganizationName("\u202EemcA")).toBe("emcA");
    expect(normalizeOrganizationName("Acme\u2066 Corp\u2069")).toBe("Acme Corp");
  });

  it("keeps joiners inside visible text (emoji sequences, scripts)", () => {
    expect(normalizeOrganizationName("Team 👩\u200D💻")).toBe("Team 👩\u200D💻");
  });

  it("refuses a name with nothing visible left", () => {
    for (const name of ["", "   ", "\u200B", "\u200B\u200C\u200D", "\uFEFF", "\u00AD", "\u2800", "\u3164", "\u3000", "\u202E\u202C", "\t\n"]) {
      expect(() => normalizeOrganizationName(name)).toThrow("Organization name is required");
    }
  });

  it("counts the maximum in characters after normalizing", () => {
    expect(normalizeName("é".repeat(100), "Name")).toHaveLength(100);
    expect(() => normalizeName("x".repeat(101), "Name")).toThrow("Name must be at most 100 characters");
  });
});
