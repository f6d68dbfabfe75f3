import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { formatChange, formatExactChange } from "./format";
import { Change } from "./LedgerTable";
import { BalanceCard } from "./BalanceCard";
import { rechargeLimitText, rechargePausedText } from "./recharge";
import { RechargePausedBanner } from "./RechargePausedBanner";
import { addFundsError, autoPaymentErrors } from "./validation";
import { StaticRouter } from "react-router-dom/server";

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

describe("a sub-cent ledger change", () => {
  it("keeps the sign of the change, never +$0.00 for a debit", () => {
    expect(formatChange(-0.000123)).toBe("-$0.00");
    expect(formatChange(-0.004999)).toBe("-$0.00");
    expect(formatChange(0.000123)).toBe("+$0.00");
    expect(formatChange(-0.005)).toBe("-$0.01");
  });

  it("has an exact form to the micro-dollar", () => {
    expect(formatExactChange(-0.000123)).toBe("-$0.000123");
    expect(formatExactChange(25)).toBe("+$25.00");
    expect(formatExactChange(-1234.5)).toBe("-$1,234.50");
  });

  it("shows -$0.00 with the exact amount as its title and accessible name", () => {
    const html = renderToStaticMarkup(<Change dollars={-0.000123} />);
    expect(html).toContain('title="-$0.000123"');
    expect(html).toContain('<span aria-hidden="true">-$0.00</span>');
    expect(html).toContain('<span class="sr-only">-$0.000123</span>');
  });

  it("shows a whole-cent change as it is, with nothing added", () => {
    expect(renderToStaticMarkup(<Change dollars={25} />)).toBe("+$25.00");
  });
});

describe("the daily recharge limit on /billing", () => {
  it("states the limit in the auto-payment area", () => {
    const html = renderToStaticMarkup(
      <StaticRouter location="/billing">
        <BalanceCard
          balance={12}
          config={{ paymentMode: "auto", autoPaymentConfig: { thresholdAmount: 10, rechargeAmount: 20 } }}
          hasPaymentMethod
          rechargesPerDay={3}
        />
      </StaticRouter>,
    );
    expect(text(html)).toContain("At most 3 automatic recharges a day.");
    expect(rechargeLimitText(1)).toBe("At most 1 automatic recharge a day");
  });

  it("shows a refused recharge as a warning, with why and since when", () => {
    const html = renderToStaticMarkup(
      <RechargePausedBanner paused={{ at: "2026-11-23T09:00:00.000Z", reason: "3 recharges today, the daily limit" }} timeZone="UTC" />,
    );
    expect(html).toContain('role="alert"');
    expect(text(html)).toContain("Automatic recharge paused: 3 recharges today, the daily limit. Add funds to top up now;");
    expect(text(html)).toContain("Since 23 Nov 2026, 09:00.");
    expect(rechargePausedText("x")).toMatch(/^Automatic recharge paused: x\./);
  });
});

describe("typed amounts are plain decimals", () => {
  it("refuses hexadecimal, exponents and more than 2 decimals", () => {
    expect(addFundsError("0x10")).toBe("Enter an amount");
    expect(addFundsError("1e3")).toBe("Enter an amount");
    expect(addFundsError("10.001")).toBe("Amount must have at most 2 decimals");
    expect(addFundsError("10.01")).toBeNull();
    expect(autoPaymentErrors({ enabled: true, thresholdAmount: "20.125", rechargeAmount: "10.5" })).toEqual({
      thresholdAmount: "Threshold amount must have at most 2 decimals",
    });
  });
});

describe("invoice mode: 'Since Last Invoice' is what is owed, credit is said apart (audit O2)", () => {
  const card = (balance: number) =>
    text(
      renderToStaticMarkup(
        <StaticRouter location="/billing">
          <BalanceCard balance={balance} config={{ paymentMode: "invoice", autoPaymentConfig: null }} hasPaymentMethod />
        </StaticRouter>,
      ),
    );

  it("shows usage since the last invoice as its absolute value, with no credit line", () => {
    expect(card(-20)).toContain("Since Last Invoice $20.00 Usage is billed by invoice.");
    expect(card(0)).toContain("Since Last Invoice $0.00 Usage is billed by invoice.");
    expect(card(-20)).not.toContain("Credit");
  });

  it("shows credit as credit, owing nothing, and never as an amount that falls as usage grows", () => {
    expect(card(50)).toContain("Since Last Invoice $0.00 Credit: $50.00. Usage is taken from it before anything is owed.");
    expect(card(10)).toContain("Since Last Invoice $0.00 Credit: $10.00.");
    expect(card(-10)).toContain("Since Last Invoice $10.00 Usage is billed by invoice.");
  });
});
