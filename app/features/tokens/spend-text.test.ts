import { describe, expect, it } from "vitest";
import { formatMoney } from "@contract/money";
import { budgetText } from "./spend-text";

describe("a token's spend on /tokens", () => {
  it("shows the same figure in Spent / limit as in This month, half a cent rounded up", () => {
    expect(budgetText({ amount: 5, period: "month", spent: 1.005 })).toBe("$1.01 / $5.00 this month");
    expect(formatMoney(1.005)).toBe("$1.01");
    expect(budgetText({ amount: 0.1, period: "total", spent: 0.075 })).toBe("$0.08 / $0.10");
    expect(budgetText(null)).toBeNull();
  });
});
