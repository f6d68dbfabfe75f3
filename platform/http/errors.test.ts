import { describe, expect, it } from "vitest";
import { PlatformError } from "./errors";

describe("PlatformError, the platform's refusal", () => {
  it("carries its status, message, fields and headers into the contract's body", () => {
    const error = new PlatformError(422, "name: Required", { fields: { name: "Required" }, headers: { "Retry-After": "3" } });
    expect(error).toBeInstanceOf(Error);
    expect([error.status, error.message, error.headers]).toEqual([422, "name: Required", { "Retry-After": "3" }]);
    expect(error.body).toEqual({ error: "name: Required", fields: { name: "Required" } });
    expect(new PlatformError(404, "Not found", { fields: {} }).body).toEqual({ error: "Not found" });
  });

  it("records no stack (an answer, not a fault) and leaves other errors theirs", () => {
    const limit = Error.stackTraceLimit;
    expect(new PlatformError(503, "Card payments are not configured").stack).toBe("Error: Card payments are not configured");
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error("fault").stack).toMatch(/errors\.test\.ts/);
  });
});
