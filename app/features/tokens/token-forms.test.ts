import { describe, expect, it } from "vitest";
import { BUDGET_NOT_A_NUMBER, RPM_RULE } from "@contract/tokens";
import { parseForm } from "~/lib/parse-form";
import { createTokenForm } from "./token-forms";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries({ intent: "create", expiry: "30", ...fields })) data.append(k, v);
  return data;
};

describe("the create-token form's numbers", () => {
  it("are read as typed: 0x10 is not a budget of $16, 1e3 not 1,000 requests a minute", () => {
    const hex = parseForm(form({ budgetAmount: "0x10", rateLimitRpm: "1e3" }), { schema: createTokenForm });
    expect(hex.status === "error" && hex.error).toEqual({ budgetAmount: [BUDGET_NOT_A_NUMBER], rateLimitRpm: [RPM_RULE] });
    const plain = parseForm(form({ budgetAmount: "16", rateLimitRpm: "1000" }), { schema: createTokenForm });
    expect(plain.status === "success" && { budget: plain.value.budgetAmount, rpm: plain.value.rateLimitRpm }).toEqual({ budget: 16, rpm: 1000 });
    // Plain decimals as people type them, in the budget's text field, are read as they look.
    for (const [typed, amount] of [
      [".5", 0.5],
      ["5.", 5],
      ["+5", 5],
      [" 12.50 ", 12.5],
    ] as const) {
      const read = parseForm(form({ budgetAmount: typed }), { schema: createTokenForm });
      expect(read.status === "success" && read.value.budgetAmount, typed).toBe(amount);
    }
    const blank = parseForm(form({ budgetAmount: "", rateLimitRpm: "" }), { schema: createTokenForm });
    expect(blank.status === "success" && { budget: blank.value.budgetAmount, rpm: blank.value.rateLimitRpm }).toEqual({ budget: undefined, rpm: undefined });
  });
});
