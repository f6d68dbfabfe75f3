import { describe, expect, it } from "vitest";
import { parseForm } from "~/lib/parse-form";
import { autoPaymentSchema } from "@contract/billing";
import { formatMoney } from "@contract/money";
import { formatDateTime } from "~/lib/datetime";
import { cardSubject, describeCard, formatChange } from "./format";
import { pageCursor } from "~/lib/keyset-page";
import { ledgerPage } from "./ledger-page";
import {
  addFundsError,
  addFundsForm,
  autoPaymentForm,
  autoPaymentDefaults,
  autoPaymentErrors,
  autoReloadEnabled,
  readSetupReturn,
  RECHARGE_TOO_SMALL,
  THRESHOLD_NEGATIVE,
} from "./validation";

describe("money formatting", () => {
  it("shows balances with $ and 2 decimals, negative with a leading minus", () => {
    expect(formatMoney(0)).toBe("$0.00");
    expect(formatMoney(25)).toBe("$25.00");
    expect(formatMoney(1234.5)).toBe("$1,234.50");
    expect(formatMoney(-3.456)).toBe("-$3.46");
    expect(formatMoney(0.004)).toBe("$0.00");
  });

  it("signs every ledger change with + or -, then $ and 2 decimals", () => {
    expect(formatChange(25)).toBe("+$25.00");
    expect(formatChange(-0.012)).toBe("-$0.01");
    expect(formatChange(-1500)).toBe("-$1,500.00");
    expect(formatChange(0)).toBe("+$0.00");
  });

  it("rounds a half cent the same way on the balance card and in the ledger, whatever the sign", () => {
    for (const [amount, balance, change] of [
      [1.005, "$1.01", "+$1.01"],
      [10.075, "$10.08", "+$10.08"],
      [-0.005, "-$0.01", "-$0.01"],
      [-0.015, "-$0.02", "-$0.02"],
      [-2, "-$2.00", "-$2.00"],
    ] as const) {
      expect(formatMoney(amount)).toBe(balance);
      expect(formatChange(amount)).toBe(change);
    }
  });

  it("describes a saved card", () => {
    expect(describeCard({ brand: "visa", last4: "4242" })).toBe("Visa •••• 4242");
    expect(describeCard(null)).toBe("Card on file");
    expect(cardSubject({ brand: "visa", last4: "4242" })).toBe("Visa card ending 4242");
    expect(cardSubject({ brand: null, last4: "4242" })).toBe("card ending 4242");
    expect(cardSubject({ brand: "visa", last4: null })).toBe("payment method");
    expect(cardSubject(null)).toBe("payment method");
  });
});

describe("ledger timestamps", () => {
  it("use the 24-hour clock in the viewer's time zone", () => {
    expect(formatDateTime("2025-03-04T15:07:00.000Z", "UTC")).toBe("04 Mar 2025, 15:07");
    expect(formatDateTime("2025-03-04T23:30:00.000Z", "Europe/Berlin")).toBe("05 Mar 2025, 00:30");
    expect(formatDateTime("2025-03-04T13:00:00.000Z", "America/New_York")).not.toMatch(/AM|PM/);
  });
});

describe("add funds rules", () => {
  it("needs at least $10 and at most $10,000", () => {
    expect(addFundsError("10")).toBeNull();
    expect(addFundsError(25)).toBeNull();
    expect(addFundsError("9.99")).toBe("Amount must be at least $10");
    expect(addFundsError("10000.01")).toBe("Amount must be at most $10,000");
    expect(addFundsError("")).toBe("Enter an amount");
    expect(addFundsError("abc")).toBe("Enter an amount");
  });
});

describe("auto-payment rules", () => {
  it("give SPEC's two texts when enabled", () => {
    expect(autoPaymentErrors({ enabled: true, thresholdAmount: "-1", rechargeAmount: "9" })).toEqual({
      thresholdAmount: THRESHOLD_NEGATIVE,
      rechargeAmount: RECHARGE_TOO_SMALL,
    });
    expect(THRESHOLD_NEGATIVE).toBe("Threshold amount must be non-negative");
    expect(RECHARGE_TOO_SMALL).toBe("Recharge amount must be at least $10");
    expect(autoPaymentErrors({ enabled: true, thresholdAmount: "0", rechargeAmount: "10" })).toEqual({});
    // Blank is not negative: the person is told what is missing.
    expect(autoPaymentErrors({ enabled: true, thresholdAmount: "", rechargeAmount: undefined })).toEqual({
      thresholdAmount: "Enter a threshold amount",
      rechargeAmount: "Enter a recharge amount",
    });
  });

  it("are not checked when disabled", () => {
    expect(autoPaymentErrors({ enabled: false, thresholdAmount: "-1", rechargeAmount: "0" })).toEqual({});
  });

  it("start at 20 and 10 without a config", () => {
    expect(autoPaymentDefaults({ paymentMode: "manual", autoPaymentConfig: null })).toEqual({ enabled: false, thresholdAmount: 20, rechargeAmount: 10 });
    expect(autoPaymentDefaults({ paymentMode: "auto", autoPaymentConfig: { thresholdAmount: 5, rechargeAmount: 50 } })).toEqual({
      enabled: true,
      thresholdAmount: 5,
      rechargeAmount: 50,
    });
  });

  it("start switched on only as the card reads Enabled: manual mode with kept amounts starts off, with them", () => {
    expect(autoPaymentDefaults({ paymentMode: "manual", autoPaymentConfig: { thresholdAmount: 5, rechargeAmount: 15 } })).toEqual({
      enabled: false,
      thresholdAmount: 5,
      rechargeAmount: 15,
    });
  });

  it("show Enabled only in auto mode with a config", () => {
    expect(autoReloadEnabled({ paymentMode: "auto", autoPaymentConfig: { thresholdAmount: 1, rechargeAmount: 10 } })).toBe(true);
    expect(autoReloadEnabled({ paymentMode: "auto", autoPaymentConfig: null })).toBe(false);
    expect(autoReloadEnabled({ paymentMode: "manual", autoPaymentConfig: { thresholdAmount: 1, rechargeAmount: 10 } })).toBe(false);
  });
});

describe("return from the card form's redirect", () => {
  it("succeeds only with the three parameters and redirect_status=succeeded", () => {
    expect(readSetupReturn(new URLSearchParams(""))).toEqual({ kind: "none" });
    expect(readSetupReturn(new URLSearchParams("setup_intent=seti_1&setup_intent_client_secret=s&redirect_status=succeeded"))).toEqual({
      kind: "succeeded",
      setupIntentId: "seti_1",
    });
    expect(readSetupReturn(new URLSearchParams("setup_intent=seti_1&setup_intent_client_secret=s&redirect_status=failed"))).toEqual({ kind: "failed" });
    expect(readSetupReturn(new URLSearchParams("setup_intent=seti_1&redirect_status=succeeded"))).toEqual({ kind: "failed" });
  });
});

describe("the billing forms as the server parses them", () => {
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [k, v] of Object.entries(fields)) data.append(k, v);
    return data;
  };

  it("add funds: the amount as a number, or the rule's words next to the field", () => {
    const ok = parseForm(form({ intent: "add-funds", amount: "25", nonce: "n-1" }), { schema: addFundsForm });
    expect(ok.status === "success" && ok.value).toEqual({ intent: "add-funds", amount: 25, nonce: "n-1" });
    const low = parseForm(form({ intent: "add-funds", amount: "9" }), { schema: addFundsForm });
    expect(low.status === "error" && low.error).toEqual({ amount: ["Amount must be at least $10"] });
    const blank = parseForm(form({ intent: "add-funds", amount: "" }), { schema: addFundsForm });
    expect(blank.status === "error" && blank.error).toEqual({ amount: ["Enter an amount"] });
    // Number() reads these (0x10 was $16, 1e3 $1,000); the wire refuses them, and so does the form.
    for (const typed of ["0x10", "1e3", "Infinity", "0b1010", "25,00"]) {
      const refused = parseForm(form({ intent: "add-funds", amount: typed }), { schema: addFundsForm });
      expect(refused.status === "error" && refused.error, typed).toEqual({ amount: [expect.stringMatching(/./)] });
      expect(refused.status === "error" && refused.error?.amount, typed).not.toEqual(["Amount must be at least $10"]);
    }
    for (const [typed, amount] of [
      [" 25 ", 25],
      ["12.50", 12.5],
    ] as const) {
      const read = parseForm(form({ intent: "add-funds", amount: typed, nonce: "n-1" }), { schema: addFundsForm });
      expect(read.status === "success" && read.value.amount, typed).toBe(amount);
    }
  });

  it("auto-payment: both messages when enabled, nothing checked when disabled", () => {
    const bad = parseForm(form({ intent: "auto-payment", enabled: "on", thresholdAmount: "-1", rechargeAmount: "5" }), { schema: autoPaymentForm });
    expect(bad.status === "error" && bad.error).toEqual({ thresholdAmount: [THRESHOLD_NEGATIVE], rechargeAmount: [RECHARGE_TOO_SMALL] });
    const ok = parseForm(form({ intent: "auto-payment", enabled: "on", thresholdAmount: "15", rechargeAmount: "30" }), { schema: autoPaymentForm });
    expect(ok.status === "success" && ok.value).toEqual({ enabled: true, thresholdAmount: 15, rechargeAmount: 30 });
    const off = parseForm(form({ intent: "auto-payment", thresholdAmount: "-1", rechargeAmount: "" }), { schema: autoPaymentForm });
    expect(off.status === "success" && off.value).toEqual({ enabled: false });
  });

  it("auto-payment switched off sends no amounts, so the platform cannot refuse it for amounts it ignores", () => {
    const off = parseForm(form({ intent: "auto-payment", thresholdAmount: "10.001", rechargeAmount: "5" }), { schema: autoPaymentForm });
    expect(off.status === "success" && off.value).toEqual({ enabled: false });
    expect(off.status === "success" && autoPaymentSchema.safeParse(off.value).success).toBe(true);
  });
});

describe("a page of the ledger", () => {
  const rows = (...ids: number[]) =>
    ids.map((id) => ({ id, timestamp: "2025-01-01T00:00:00.000Z", description: "x", model: null, rateCardId: null, change: 1 }));

  it("the first page: an extra row means older rows exist", () => {
    expect(ledgerPage(rows(9, 8, 7), {}, 2)).toEqual({ rows: rows(9, 8), olderCursor: 8, newerCursor: null });
    expect(ledgerPage(rows(9, 8), {}, 2)).toEqual({ rows: rows(9, 8), olderCursor: null, newerCursor: null });
  });

  it("before a cursor there are newer rows; after one, older rows, and an extra row at the top means newer ones", () => {
    expect(ledgerPage(rows(6, 5), { before: 7 }, 2)).toEqual({ rows: rows(6, 5), olderCursor: null, newerCursor: 6 });
    expect(ledgerPage(rows(9, 8, 7), { after: 6 }, 2)).toEqual({ rows: rows(8, 7), olderCursor: 7, newerCursor: 8 });
    expect(ledgerPage([], {}, 2)).toEqual({ rows: [], olderCursor: null, newerCursor: null });
  });

  it("reads cursors from the URL as positive integers only", () => {
    expect(pageCursor("12")).toBe(12);
    expect(pageCursor("0")).toBeUndefined();
    expect(pageCursor("1.5")).toBeUndefined();
    expect(pageCursor(null)).toBeUndefined();
  });
});
