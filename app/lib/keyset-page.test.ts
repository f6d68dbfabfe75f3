import { describe, expect, it } from "vitest";
import { pageCursor } from "./keyset-page";
import { queryString } from "./query-string";

describe("pageCursor", () => {
  it("reads a row id written in digits, and sends it back so", () => {
    expect(pageCursor("42")).toBe(42);
    expect(queryString({ before: pageCursor("42") })).toBe("?before=42");
  });

  it("reads anything else as no cursor (the first page), never as a number the platform refuses", () => {
    for (const value of [null, "", "0", "-3", "1.5", "0x10", "1e1", " 5", "1e25", "99999999999999999999"]) {
      expect([value, pageCursor(value)]).toEqual([value, undefined]);
    }
  });
});
