import { parseForm } from "~/lib/parse-form";
import { describe, expect, it } from "vitest";
import { SPEND_CAP_CENTS, SPEND_CAP_NOT_A_NUMBER, SPEND_CAP_TOO_LARGE, SPEND_CAP_TOO_SMALL } from "@contract/billing";
import { spendCapForm } from "./spend-cap-form";

function submit(monthlyCap: string) {
  const formData = new FormData();
  formData.set("intent", "spend-cap");
  formData.set("monthlyCap", monthlyCap);
  return parseForm(formData, { schema: spendCapForm });
}

function errorsOf(monthlyCap: string) {
  const parsed = submit(monthlyCap);
  return parsed.status === "error" ? parsed.error : null;
}

describe("the monthly spend cap form", () => {
  it("reads dollars as typed, and blank as no cap", () => {
    expect(submit("250").status).toBe("success");
    expect(submit(" 12.50 ").payload).toMatchObject({ monthlyCap: " 12.50 " });
    const parsed = submit("12.50");
    expect(parsed.status === "success" && parsed.value.monthlyCap).toBe(12.5);
    const blank = submit("");
    expect(blank.status === "success" && blank.value.monthlyCap).toBeUndefined();
  });

  it("refuses what add funds refuses: exponents, hexadecimal, words", () => {
    for (const typed of ["1e3", "0x10", "Infinity", "abc", "1,000"]) {
      expect(errorsOf(typed), typed).toEqual({ monthlyCap: [SPEND_CAP_NOT_A_NUMBER] });
    }
  });

  it("says the contract's words for amounts out of range", () => {
    expect(errorsOf("0")).toEqual({ monthlyCap: [SPEND_CAP_TOO_SMALL] });
    expect(errorsOf("-5")).toEqual({ monthlyCap: [SPEND_CAP_TOO_SMALL] });
    expect(errorsOf("10000001")).toEqual({ monthlyCap: [SPEND_CAP_TOO_LARGE] });
    expect(errorsOf("10.123")).toEqual({ monthlyCap: [SPEND_CAP_CENTS] });
  });
});
