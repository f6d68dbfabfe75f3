import { describe, expect, it } from "vitest";
import type { Sums } from "./rollup";
import { buildReport } from "./service";

const sums = (requests: number, costMicros: number): Sums => ({ requests, promptTokens: 1, completionTokens: 1, reasoningTokens: 0, costMicros });

describe("the usage report's order", () => {
  it("is busiest first, ties in code-unit order of the key, however the database grouped the rows", () => {
    const tie = sums(2, 100);
    const report = buildReport(
      7,
      20_000,
      {
        daily: new Map([[20_000, sums(7, 400)]]),
        // As PostgreSQL with an en-US collation returns them; SQLite returns "Alpha" first.
        models: new Map([
          ["alpha", tie],
          ["Émile", tie],
          ["big", sums(1, 200)],
          ["Alpha", tie],
        ]),
        tokens: new Map([
          [9, tie],
          [3, tie],
        ]),
        members: new Map(),
      },
      new Map([
        [9, "nine"],
        [3, "three"],
      ]),
    );
    expect(report.models.map((m) => m.model)).toEqual(["big", "Alpha", "alpha", "Émile"]);
    expect(report.sources.filter((s) => s.kind === "api").map((s) => s.token)).toEqual(["three", "nine"]);
  });
});
