import { describe, expect, it } from "vitest";
import { formatContextSize, MODEL_STATUSES, STATUS_DOT_CLASS, STATUS_LABELS, STATUS_TOOLTIPS, statusOf } from "./status";

describe("model status", () => {
  it("defaults a missing or odd name to unknown", () => {
    expect(statusOf({ a: "online" }, "a")).toBe("online");
    expect(statusOf({ a: "online" }, "b")).toBe("unknown");
    expect(statusOf(null, "a")).toBe("unknown");
    expect(statusOf({ a: "weird" as never }, "a")).toBe("unknown");
  });

  it("has a tooltip for every status, online reading as SPEC says", () => {
    expect(STATUS_TOOLTIPS.online).toBe("Model is online and accepting requests");
    for (const s of MODEL_STATUSES) expect(STATUS_TOOLTIPS[s]).toMatch(/^Model /);
  });

  it("tells every status apart without colour: a word each, and no two dots alike even without motion", () => {
    expect(new Set(MODEL_STATUSES.map((s) => STATUS_LABELS[s])).size).toBe(MODEL_STATUSES.length);
    const still = (s: (typeof MODEL_STATUSES)[number]) =>
      STATUS_DOT_CLASS[s]
        .split(" ")
        .filter((c) => !/(^|:)animate-/.test(c))
        .sort()
        .join(" ");
    expect(new Set(MODEL_STATUSES.map(still)).size).toBe(MODEL_STATUSES.length);
    // The pulse of "starting" runs only where motion is welcome.
    for (const s of MODEL_STATUSES) for (const c of STATUS_DOT_CLASS[s].split(" ")) if (c.includes("animate-")) expect(c).toMatch(/^motion-safe:/);
  });

  it("separates thousands in context sizes", () => {
    expect(formatContextSize(131072)).toBe("131,072");
    expect(formatContextSize(8192)).toBe("8,192");
    expect(formatContextSize(512)).toBe("512");
  });
});
