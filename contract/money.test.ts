import { describe, expect, it } from "vitest";
import { exactDollars, formatMoney } from "./money";

describe("formatMoney: $ and 2 decimals, the same figure on every screen", () => {
  it("rounds half a cent away from zero, from whole micro-dollars", () => {
    expect(formatMoney(1.005)).toBe("$1.01");
    expect(formatMoney(10.075)).toBe("$10.08");
    expect(formatMoney(2.675)).toBe("$2.68");
    expect(formatMoney(0.125)).toBe("$0.13");
    expect(formatMoney(1.004999)).toBe("$1.00");
  });

  it("rounds a negative amount as its positive, with the sign before the $", () => {
    expect(formatMoney(-0.005)).toBe("-$0.01");
    expect(formatMoney(-0.015)).toBe("-$0.02");
    expect(formatMoney(-0.125)).toBe("-$0.13");
    expect(formatMoney(-1.005)).toBe("-$1.01");
    expect(formatMoney(-2)).toBe("-$2.00");
  });

  it("shows an amount that rounds to nothing as $0.00, unsigned", () => {
    expect(formatMoney(0)).toBe("$0.00");
    expect(formatMoney(-0)).toBe("$0.00");
    expect(formatMoney(-0.004999)).toBe("$0.00");
    expect(formatMoney(0.000001)).toBe("$0.00");
  });

  it("separates thousands", () => {
    expect(formatMoney(1234.5)).toBe("$1,234.50");
    expect(formatMoney(-1_000_000)).toBe("-$1,000,000.00");
  });
});

describe("exactDollars: to the micro-dollar, for the refusal messages", () => {
  it("shows whole cents with 2 decimals and anything finer to the micro-dollar", () => {
    expect(exactDollars(2.5)).toBe("$2.50");
    expect(exactDollars(0.001018)).toBe("$0.001018");
    expect(exactDollars(0.0005)).toBe("$0.0005");
    expect(exactDollars(0)).toBe("$0.00");
    expect(exactDollars(1234.5)).toBe("$1,234.50");
  });

  it("puts the sign before the $", () => {
    expect(exactDollars(-2)).toBe("-$2.00");
    expect(exactDollars(-0.000123)).toBe("-$0.000123");
  });
});
