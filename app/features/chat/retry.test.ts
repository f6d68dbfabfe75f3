import { describe, expect, it } from "vitest";
import {
  classifyFailure,
  MAX_AUTOMATIC_RETRIES,
  mayRetryAgain,
  REMOVED_NOTICE,
  RETRY_NOTICES,
  RETRY_SECONDS,
  retryChip,
  secondsLeft,
  UNAVAILABLE_NOTICES,
} from "./retry";

describe("retry countdown", () => {
  it("waits 30 s after a 503 and 5 s after a 429", () => {
    expect(RETRY_SECONDS[503]).toBe(30);
    expect(RETRY_SECONDS[429]).toBe(5);
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

describe("which failures are retried", () => {
  const maintenance = "The model 'x' is under maintenance";

  it("retries a 503 as warming up only for a model starting, unknown or reported online", () => {
    expect(classifyFailure(503, "Upstream busy", "starting")).toEqual({ kind: "retry", status: 503 });
    expect(classifyFailure(503, "", "unknown")).toEqual({ kind: "retry", status: 503 });
    expect(classifyFailure(503, "", null)).toEqual({ kind: "retry", status: 503 });
    expect(classifyFailure(503, "", "online")).toEqual({ kind: "retry", status: 503 });
  });

  it("stops on a 503 whose message says maintenance, whatever the polled status", () => {
    expect(classifyFailure(503, maintenance, "online")).toEqual({ kind: "unavailable", status: "maintenance" });
    expect(classifyFailure(503, maintenance, "unknown")).toEqual({ kind: "unavailable", status: "maintenance" });
  });

  it("stops on a 503 from a model polled as maintenance, offline or standby", () => {
    expect(classifyFailure(503, "", "maintenance")).toEqual({ kind: "unavailable", status: "maintenance" });
    expect(classifyFailure(503, "", "offline")).toEqual({ kind: "unavailable", status: "offline" });
    expect(classifyFailure(503, "", "standby")).toEqual({ kind: "unavailable", status: "standby" });
  });

  it("always retries a 429 and never other statuses", () => {
    expect(classifyFailure(429, maintenance, "maintenance")).toEqual({ kind: "retry", status: 429 });
    expect(classifyFailure(500, "", "starting")).toEqual({ kind: "error" });
    expect(classifyFailure(502, "", "offline")).toEqual({ kind: "error" });
  });

  it("says the status plainly", () => {
    expect(UNAVAILABLE_NOTICES.maintenance).toBe("This model is under maintenance.");
    expect(UNAVAILABLE_NOTICES.offline).toBe("This model is offline.");
    expect(UNAVAILABLE_NOTICES.standby).toBe("This model is on standby.");
  });
});

describe("how long the chat retries by itself", () => {
  it("retries a rate limit five times in a row and a warming model ten (five minutes), then gives up", () => {
    expect(MAX_AUTOMATIC_RETRIES).toEqual({ 429: 5, 503: 10 });
    expect([0, 1, 2, 3, 4].every((attempt) => mayRetryAgain(429, attempt))).toBe(true);
    expect(mayRetryAgain(429, 5)).toBe(false);
    expect(mayRetryAgain(503, 9)).toBe(true);
    expect(mayRetryAgain(503, 10)).toBe(false);
  });
});

describe("a model removed while the chat was open", () => {
  const removed = "The model 'x' does not exist";

  it("is told by the platform's 404 with the code model_not_found", () => {
    expect(classifyFailure(404, removed, "unknown", "model_not_found")).toEqual({ kind: "removed" });
    expect(classifyFailure(404, removed, "online", "model_not_found")).toEqual({ kind: "removed" });
  });

  it("is not any 404, nor that code on another status", () => {
    expect(classifyFailure(404, "Not found", "online", null)).toEqual({ kind: "error" });
    expect(classifyFailure(400, removed, "online", "model_not_found")).toEqual({ kind: "error" });
  });

  it("asks for another model", () => {
    expect(REMOVED_NOTICE).toBe("This model was removed. Choose another model.");
  });
});
