import { describe, expect, it } from "vitest";
import { staticPage } from "~/lib/static-page.testing";
import { AutoPaymentForm } from "./AutoPaymentForm";

const ON = { paymentMode: "auto" as const, autoPaymentConfig: { thresholdAmount: 20, rechargeAmount: 10 } };
const OFF = { paymentMode: "manual" as const, autoPaymentConfig: null };
const form = async (config: typeof ON | typeof OFF, balance: number | null, held = 0) =>
  (
    await staticPage(
      "/billing?dialog=auto-payment",
      <AutoPaymentForm config={config} funds={balance === null ? null : { balance, held }} lastResult={undefined} />,
    )
  )().replace(/<!-- -->/g, "");
const WARNING = "Your balance ($10.00) is below the threshold: saving charges your card $10.00 now.";

describe("the auto-payment form", () => {
  it("says, before anything is saved, that a save below the threshold charges the card at once", async () => {
    const html = await form(OFF, 10);
    expect(html).toContain("if it is already below, or nothing is left, when you save, at once.");
    expect(html).not.toContain(WARNING);
  });

  it("warns with the figures when auto-payment is on and the balance is under its threshold", async () => {
    expect(await form(ON, 10)).toContain(WARNING);
    // Politely, from a region that stays: it changes as the figures are typed, and an alert interrupted each keystroke.
    expect(await form(ON, 10)).toMatch(/<div role="status"[^>]*><div class="alert alert-warning">/);
    expect(await form(ON, 10)).not.toContain('role="alert"');
    expect(await form(ON, 25)).toMatch(/<div role="status"[^>]*><\/div>/);
    expect(await form(ON, 25)).not.toContain("saving charges your card");
    expect(await form(ON, null)).not.toContain("saving charges your card");
  });

  it("warns at $0 with a $0 threshold (nothing left is recharged too), and not for a recharge the platform would refuse", async () => {
    const zero = { paymentMode: "auto" as const, autoPaymentConfig: { thresholdAmount: 0, rechargeAmount: 10 } };
    expect(await form(zero, 0)).toContain("Your balance is $0.00: saving charges your card $10.00 now.");
    expect(await form(zero, 5)).not.toContain("saving charges your card");
    const tooSmall = { paymentMode: "auto" as const, autoPaymentConfig: { thresholdAmount: 20, rechargeAmount: 5 } };
    expect(await form(tooSmall, 0)).not.toContain("saving charges your card");
  });

  it("compares what can be spent, the balance less what running requests hold, as the platform does", async () => {
    expect(await form(ON, 25, 10)).toContain(
      "What you can spend ($15.00: your balance less $10.00 held by running requests) is below the threshold: saving charges your card $10.00 now.",
    );
    expect(await form(ON, 35, 10)).not.toContain("saving charges your card");
    const zero = { paymentMode: "auto" as const, autoPaymentConfig: { thresholdAmount: 0, rechargeAmount: 10 } };
    expect(await form(zero, 4, 4)).toContain(
      "What you can spend ($0.00: your balance less $4.00 held by running requests) is nothing: saving charges your card $10.00 now.",
    );
  });
});
