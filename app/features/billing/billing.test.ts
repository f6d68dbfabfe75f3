import { describe, expect, it } from "vitest";
import { describeCard, formatBalance, formatChange, formatLedgerTime } from "./format";
import {
  addFundsError,
  autoPaymentDefaults,
  autoPaymentErrors,
  autoReloadEnabled,
  readSetupReturn,
  RECHARGE_TOO_SMALL,
  THRESHOLD_NEGATIVE,
} from "./validation";

describe("money formatting", () => {
  it("shows balances with $ and 2 decimals, negative with a leading minus", () => {
    expect(formatBalance(0)).toBe("$0.00");
    expect(formatBalance(25)).toBe("$25.00");
    expect(formatBalance(1234.5)).toBe("$1,234.50");
    expect(formatBalance(-3.456)).toBe("-$3.46");
    expect(formatBalance(0.004)).toBe("$0.00");
  });

  it("signs every ledger change with + or -, then $ and 2 decimals", () => {
    expect(formatChange(25)).toBe("+$25.00");
    expect(formatChange(-0.012)).toBe("-$0.01");
    expect(formatChange(-1500)).toBe("-$1,500.00");
    expect(formatChange(0)).toBe("+$0.00");
  });

  it("describes a saved card", () => {
    expect(describeCard({ brand: "visa", last4: "4242" })).toBe("Visa •••• 4242");
    expect(describeCard(null)).toBe("Card on file");
  });
});

describe("ledger timestamps", () => {
  it("use the 24-hour clock in the viewer's time zone", () => {
    expect(formatLedgerTime("2025-03-04T15:07:00.000Z", "UTC")).toBe("04 Mar 2025, 15:07");
    expect(formatLedgerTime("2025-03-04T23:30:00.000Z", "Europe/Berlin")).toBe("05 Mar 2025, 00:30");
    expect(formatLedgerTime("2025-03-04T13:00:00.000Z", "America/New_York")).not.toMatch(/AM|PM/);
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
    expect(autoPaymentErrors({ enabled: true, thresholdAmount: "-1", rechargeAmount: "9" })).toEqual({ thresholdAmount: THRESHOLD_NEGATIVE, rechargeAmount: RECHARGE_TOO_SMALL });
    expect(THRESHOLD_NEGATIVE).toBe("Threshold amount must be non-negative");
    expect(RECHARGE_TOO_SMALL).toBe("Recharge amount must be at least $10");
    expect(autoPaymentErrors({ enabled: true, thresholdAmount: "0", rechargeAmount: "10" })).toEqual({});
    expect(autoPaymentErrors({ enabled: true, thresholdAmount: "", rechargeAmount: "" })).toEqual({ thresholdAmount: THRESHOLD_NEGATIVE, rechargeAmount: RECHARGE_TOO_SMALL });
  });

  it("are not checked when disabled", () => {
    expect(autoPaymentErrors({ enabled: false, thresholdAmount: "-1", rechargeAmount: "0" })).toEqual({});
  });

  it("start at 20 and 10 without a config", () => {
    expect(autoPaymentDefaults(null)).toEqual({ enabled: false, thresholdAmount: 20, rechargeAmount: 10 });
    expect(autoPaymentDefaults({ thresholdAmount: 5, rechargeAmount: 50 })).toEqual({ enabled: true, thresholdAmount: 5, rechargeAmount: 50 });
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
    expect(readSetupReturn(new URLSearchParams("setup_intent=seti_1&setup_intent_client_secret=s&redirect_status=succeeded"))).toEqual({ kind: "succeeded", setupIntentId: "seti_1" });
    expect(readSetupReturn(new URLSearchParams("setup_intent=seti_1&setup_intent_client_secret=s&redirect_status=failed"))).toEqual({ kind: "failed" });
    expect(readSetupReturn(new URLSearchParams("setup_intent=seti_1&redirect_status=succeeded"))).toEqual({ kind: "failed" });
  });
});
