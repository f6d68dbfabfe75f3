import { describe, expect, it } from "vitest";
import { isRetryStatus, RETRY_NOTICES, RETRY_SECONDS, retryChip, secondsLeft } from "./retry";

describe("retry countdown", () => {
  it("waits 30 s after a 503 and 5 s after a 429", () => {
    expect(RETRY_SECONDS[503]).toBe(30);
    expect(RETRY_SECONDS[429]).toBe(5);
    expect(isRetryStatus(503) && isRetryStatus(429)).toBe(true);
    expect(isRetryStatus(500)).toBe(false);
  });

  it("counts whole seconds down to zero and no further", () => {
    const start = 1_000_000;
    expect(secondsLeft(30, start, start)).toBe(30);
    expect(secondsLeft(30, start, start + 999)).toBe(30);
    expect(secondsLeft(30, start, start + 1000)).toBe(29);
    expect(secondsLeft(30, start, start + 29_999)).toBe(1);
    expect(secondsLeft(30, start, start + 30_000)).toBe(0);
    expect(secondsLeft(5, start, start + 60_000)).toBe(0);
    expect(secondsLeft(5, start, start - 5_000)).toBe(5);
  });

  it("shows the texts of SPEC §8", () => {
    expect(retryChip(30)).toBe("Retrying in 30s");
    expect(RETRY_NOTICES[503]).toBe("Model is warming up. This usually takes a few minutes for the first request.");
    expect(RETRY_NOTICES[429]).toBe("Rate limit exceeded. Please wait a moment.");
  });
});
