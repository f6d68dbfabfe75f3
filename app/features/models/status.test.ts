import { describe, expect, it } from "vitest";
import { formatContextSize, MODEL_STATUSES, STATUS_TOOLTIPS, statusOf } from "./status";

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

  it("separates thousands in context sizes", () => {
    expect(formatContextSize(131072)).toBe("131,072");
    expect(formatContextSize(8192)).toBe("8,192");
    expect(formatContextSize(512)).toBe("512");
  });
});
