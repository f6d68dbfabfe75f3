import { resolvePath } from "@remix-run/react"; // @remix-run/router's, as the console's links resolve
import { describe, expect, it } from "vitest";
import { modelInputSchema } from "@contract/models";
import {
  alertText,
  figureTexts,
  formatMs,
  formatShare,
  formatTokensPerSecond,
  hourSlots,
  latencyScale,
  modelPagePath,
  NO_DATA,
  placeBands,
} from "./reliability";

const HOUR = 3_600_000;

describe("reliability figures as text", () => {
  it("reads shares, latencies and speeds, and says when there is nothing to read", () => {
    expect(formatShare(0.9973)).toBe("99.7%");
    expect(formatShare(1)).toBe("100%");
    expect(formatShare(0)).toBe("0%");
    expect(formatShare(null)).toBe(NO_DATA);
    expect(formatMs(85.4)).toBe("85 ms");
    expect(formatMs(1234)).toBe("1.2 s");
    expect(formatMs(null)).toBe(NO_DATA);
    expect(formatTokensPerSecond(42.14)).toBe("42.1 tok/s");
    expect(formatTokensPerSecond(312.6)).toBe("313 tok/s");
    expect(figureTexts(null, null)).toEqual({ uptime: NO_DATA, p50: NO_DATA, tokensPerSecond: NO_DATA, errorRate: NO_DATA, requests: 0 });
  });

  it("writes an alert as one sentence with its threshold", () => {
    expect(alertText({ model: "m", kind: "errorRate", value: 12.5, threshold: 10 })).toBe(
      "m: error rate 12.5% over the last 15 minutes, above its 10% threshold.",
    );
    expect(alertText({ model: "m", kind: "latency", value: 1500, threshold: 800 })).toBe(
      "m: p50 time to first token 1.5 s over the last 15 minutes, above its 800 ms threshold.",
    );
  });
});

describe("the timeline", () => {
  it("places bands as fractions of the window, clipped to it", () => {
    const bands = placeBands(
      [
        { status: "online", from: -10, to: 50 },
        { status: "offline", from: 50, to: 150 },
      ],
      0,
      100,
    );
    expect(bands).toEqual([
      { status: "online", from: -10, to: 50, x: 0, width: 0.5 },
      { status: "offline", from: 50, to: 150, x: 0.5, width: 0.5 },
    ]);
  });

  it("lists every hour of the window, with the figures of those that had traffic", () => {
    const from = 10 * HOUR + 1234;
    const slots = hourSlots([{ hour: 11 * HOUR, requests: 2, errors: 0, aborted: 0, errorRate: 0, p50TtftMs: 80, tokensPerSecond: 10 }], from, 13 * HOUR);
    expect(slots.map((s) => [s.hour / HOUR, s.figures?.requests ?? null])).toEqual([
      [10, null],
      [11, 2],
      [12, null],
    ]);
  });

  it("rounds the latency axis up", () => {
    expect(latencyScale(0)).toBe(100);
    expect(latencyScale(130)).toBe(200);
    expect(latencyScale(600)).toBe(1000);
    expect(latencyScale(70_000)).toBe(120_000);
  });
});

const accepted = (name: string) => modelInputSchema.shape.name.safeParse(name).success;

describe("modelPagePath", () => {
  it("reaches the model's page for every name the contract accepts: the router keeps the path as it is", () => {
    for (const name of ["org/model:tag", "qwen3:8b", "a/b/c", "org/v1.5", ".hidden/x.y", "a..b/c"]) {
      expect(accepted(name), name).toBe(true);
      const path = modelPagePath(name);
      // A client navigation fetches `${pathname}.data`: a trailing slash or an empty part would miss the page.
      expect(resolvePath(path).pathname, name).toBe(path);
      expect(path.endsWith("/"), name).toBe(false);
    }
    expect(modelPagePath("org/model:tag")).toBe("/models/org/model%3Atag");
  });

  it("is never asked for a name with an empty part: the contract refuses them", () => {
    for (const name of ["edge//double", "/lead", "trailing/"]) expect(accepted(name), name).toBe(false);
  });
});
