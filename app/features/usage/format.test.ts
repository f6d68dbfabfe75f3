import { describe, expect, it } from "vitest";
import { formatMoney } from "@contract/money";
import {
  barHeights,
  filtersFrom,
  hasFilters,
  formatCompact,
  formatCount,
  formatDay,
  formatMetric,
  labelledDays,
  metricFrom,
  metricValue,
  periodFrom,
  sourceLabel,
  totalTokens,
  usageCsvHref,
  usageSearch,
  memberSearchFrom,
} from "./format";

const figures = { requests: 3, promptTokens: 1200, completionTokens: 300, reasoningTokens: 100, cost: 0.125 };

describe("the period and chart in the URL", () => {
  it("accepts 7, 30 and 90 days and shows 30 for anything else", () => {
    expect(periodFrom("7")).toBe(7);
    expect(periodFrom("30")).toBe(30);
    expect(periodFrom("90")).toBe(90);
    for (const bad of [null, "", "1", "07", "abc", "365"]) expect(periodFrom(bad)).toBe(30);
  });

  it("charts tokens unless cost is asked for", () => {
    expect(metricFrom("cost")).toBe("cost");
    expect(metricFrom("tokens")).toBe("tokens");
    expect(metricFrom(null)).toBe("tokens");
    expect(metricFrom("requests")).toBe("tokens");
  });

  it("builds links that keep the other choice and leave out the default chart", () => {
    expect(usageSearch(7, "tokens")).toBe("?days=7");
    expect(usageSearch(90, "cost")).toBe("?days=90&chart=cost");
  });

  it("keeps the member search last, trimmed, and leaves it out when blank", () => {
    expect(usageSearch(30, "tokens", { member: 4 }, "ada lovelace")).toBe("?days=30&member=4&who=ada+lovelace");
    expect(usageSearch(30, "tokens", {}, "")).toBe("?days=30");
    expect(memberSearchFrom(new URLSearchParams("who=%20Ada%20"))).toBe("Ada");
    expect(memberSearchFrom(new URLSearchParams("who=%20"))).toBeUndefined();
    expect(memberSearchFrom(new URLSearchParams(`who=${"a".repeat(150)}`))).toHaveLength(100);
  });
});

describe("formatting", () => {
  it("shows costs with $ and 2 decimals", () => {
    expect(formatMoney(0)).toBe("$0.00");
    expect(formatMoney(0.125)).toBe("$0.13");
    expect(formatMoney(0.004)).toBe("$0.00");
    expect(formatMoney(1234.5)).toBe("$1,234.50");
    expect(formatMoney(-2)).toBe("-$2.00");
  });

  it("separates thousands in counts and shortens them where space is tight", () => {
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(formatCompact(950)).toBe("950");
    expect(formatCompact(1250)).toBe("1.3K");
    expect(formatCompact(3_400_000)).toBe("3.4M");
  });

  it("counts prompt plus completion tokens (reasoning is inside completion)", () => {
    expect(totalTokens(figures)).toBe(1500);
    expect(metricValue(figures, "tokens")).toBe(1500);
    expect(metricValue(figures, "cost")).toBe(0.125);
    expect(formatMetric(1500, "tokens")).toBe("1,500 tokens");
    expect(formatMetric(1, "tokens")).toBe("1 token");
    expect(formatMetric(0.125, "cost")).toBe("$0.13");
  });

  it("writes UTC days the same way everywhere", () => {
    expect(formatDay("2025-01-05")).toBe("5 Jan");
    expect(formatDay("2025-12-31", true)).toBe("31 Dec 2025");
    expect(formatDay("not a day")).toBe("not a day");
  });

  it("names the console and each API token", () => {
    expect(sourceLabel({ kind: "console", token: null })).toBe("Console chat");
    expect(sourceLabel({ kind: "api", token: "tok_abc" })).toBe("API token tok_abc");
    expect(sourceLabel({ kind: "api", token: null })).toBe("API token (deleted)");
  });
});

describe("the daily chart", () => {
  it("scales bars to the busiest day, keeps small days visible and empty days flat", () => {
    expect(barHeights([0, 50, 100, 1])).toEqual([0, 50, 100, 2]);
    expect(barHeights([0, 0, 0])).toEqual([0, 0, 0]);
    expect(barHeights([])).toEqual([]);
    expect(barHeights([0.002, 0.001])).toEqual([100, 50]);
  });

  it("labels every day of a week, every 5th of 30 days and every 15th of 90, always today", () => {
    expect([...labelledDays(7)].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect([...labelledDays(30)].sort((a, b) => a - b)).toEqual([4, 9, 14, 19, 24, 29]);
    // Half as many on a phone, the last still among them.
    expect([...labelledDays(7, 2)].sort((a, b) => a - b)).toEqual([0, 2, 4, 6]);
    expect([...labelledDays(30, 2)].sort((a, b) => a - b)).toEqual([9, 19, 29]);
    expect([...labelledDays(90)].sort((a, b) => a - b)).toEqual([14, 29, 44, 59, 74, 89]);
  });
});

describe("usage filters in the URL", () => {
  it("reads model, token and member, blanks and bad members as none", () => {
    expect(filtersFrom(new URLSearchParams("model=llama&token=tok_1&member=7"))).toEqual({ model: "llama", token: "tok_1", member: 7 });
    expect(filtersFrom(new URLSearchParams("model=&token=%20&member=abc"))).toEqual({ model: undefined, token: undefined, member: undefined });
    expect(filtersFrom(new URLSearchParams("member=-3")).member).toBeUndefined();
    // An id is written in digits, as the platform reads it: 0x2, 2.0 and 1e0 name no member.
    for (const typed of ["0x2", "2.0", "1e0"]) expect(filtersFrom(new URLSearchParams({ member: typed })).member, typed).toBeUndefined();
  });

  it("writes them after the period and chart, leaving out the unset ones", () => {
    expect(usageSearch(30, "tokens", { token: "tok_1" })).toBe("?days=30&token=tok_1");
    expect(usageSearch(7, "cost", { model: "llama", member: 4 })).toBe("?days=7&chart=cost&model=llama&member=4");
    expect(hasFilters({})).toBe(false);
    expect(hasFilters({ member: 4 })).toBe(true);
  });

  it("pins the CSV to the last day on screen, with the filters and without the chart", () => {
    expect(usageCsvHref(7, { token: "tok_1" }, "2025-01-15")).toBe("/usage.csv?days=7&token=tok_1&to=2025-01-15");
    expect(usageCsvHref(30, {}, undefined)).toBe("/usage.csv?days=30");
  });
});
