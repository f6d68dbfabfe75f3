import { describe, expect, it } from "vitest";
import { queryString } from "./query-string";

describe("queryString", () => {
  it("writes the values that are set, encoded, and nothing when none is", () => {
    expect(queryString({ q: "Acme & Co", before: 42, limit: undefined, cursor: null, empty: "" })).toBe("?q=Acme+%26+Co&before=42");
    expect(queryString({ q: "", before: null })).toBe("");
  });
});
