import { describe, expect, it } from "vitest";
import { auditValueLines } from "./audit-values";

/** The value as the page's cell reads it, a field a line. */
const read = (value: unknown, timeZone = "UTC") => auditValueLines(value, timeZone).map(({ label, text }) => `${label}: ${text}`);

/** No JSON reaches the page: no quotes, braces, brackets or null. */
const noJson = (lines: string[]) => expect(lines.join("\n")).not.toMatch(/["{}[\]]|\bnull\b/);

describe("an audit entry's values, as the page shows them", () => {
  it("shows no value as nothing", () => {
    expect(read(null)).toEqual([]);
    expect(read(undefined)).toEqual([]);
  });

  it("names members' roles, invites, sign-ins and organizations in words", () => {
    expect(read({ role: "admin", via: "first sign-in" })).toEqual(["Role: admin", "Via: first sign-in"]);
    expect(read({ role: "member", invite: "multi-use" })).toEqual(["Role: member", "Invite: multi-use"]);
    expect(read({ provider: "github" })).toEqual(["Provider: github"]);
    expect(read({ name: "Acme" })).toEqual(["Name: Acme"]);
  });

  it("shows an invite's expiry as a date in the viewer's time zone, and no expiry or use limit in words", () => {
    const at = Date.UTC(2026, 10, 25, 22, 42);
    expect(read({ kind: "multi-use", expiresAt: at, maxUses: 5 })).toEqual(["Kind: multi-use", "Expires: 25 Nov 2026, 22:42", "Max uses: 5"]);
    expect(read({ kind: "single-use", expiresAt: null, maxUses: null }, "Asia/Tokyo")).toEqual(["Kind: single-use", "Expires: never", "Max uses: no limit"]);
    expect(read({ expiresAt: at }, "Asia/Tokyo")).toEqual(["Expires: 26 Nov 2026, 07:42"]);
  });

  it("shows a token's scopes, budget, allow-list and rate in words and dollars", () => {
    const created = read({ scopes: ["chat"], expiresAt: null, budget: null, allowedModels: null, rateLimitRpm: null });
    expect(created).toEqual(["Scopes: chat", "Expires: never", "Budget: no limit", "Allowed models: all models", "Rate limit: no limit"]);
    const before = read({ budget: { amount: 5, period: "month" }, allowedModels: ["builtin"], rateLimitRpm: 10 });
    expect(before).toEqual(["Budget: $5.00 a month", "Allowed models: builtin", "Rate limit: 10 / min"]);
    expect(read({ scopes: ["chat", "models:read"], budget: { amount: 1234.5, period: "total" }, rateLimitRpm: 12000 })).toEqual([
      "Scopes: chat, models:read",
      "Budget: $1,234.50 in total",
      "Rate limit: 12,000 / min",
    ]);
    expect(read({ scopes: [] })).toEqual(["Scopes: none"]);
    noJson([...created, ...before]);
  });

  it("shows a roll's grace period in words, and the old secret's end as a date, or not at all without one", () => {
    const until = new Date(Date.UTC(2026, 10, 25, 22, 42)).toISOString();
    expect(read({ grace: "24h", oldSecretValidUntil: until }, "Asia/Tokyo")).toEqual(["Grace period: 24 hours", "Old secret works until: 26 Nov 2026, 07:42"]);
    expect(read({ grace: "none", oldSecretValidUntil: null })).toEqual(["Grace period: none"]);
  });

  it("shows billing's amounts in dollars: auto-payment, the spending cap, funds and credit", () => {
    const after = read({ paymentMode: "auto", autoPaymentConfig: { thresholdAmount: 10, rechargeAmount: 20 } });
    expect(after).toEqual(["Payment mode: auto", "Auto-payment: recharge $20.00 below $10.00"]);
    expect(read({ paymentMode: "manual", autoPaymentConfig: null })).toEqual(["Payment mode: manual", "Auto-payment: off"]);
    expect(read({ monthlyCap: null })).toEqual(["Monthly spending cap: no cap"]);
    expect(read({ monthlyCap: 100 })).toEqual(["Monthly spending cap: $100.00"]);
    expect(read({ amount: -2, reason: "Given twice" })).toEqual(["Amount: -$2.00", "Reason: Given twice"]);
    expect(read({ amount: 25, description: "Stripe payment" })).toEqual(["Amount: $25.00", "Description: Stripe payment"]);
    noJson(after);
  });

  it("names a card by its brand and last 4 digits, as /billing does", () => {
    expect(read({ brand: "visa", last4: "4242" })).toEqual(["Card: Visa •••• 4242"]);
    expect(read({ brand: null, last4: "4242" })).toEqual(["Card: Card •••• 4242"]);
  });

  it("shows a model's fields with their units, booleans as yes or no and unset ones in words", () => {
    const added = read({
      displayName: "Tiny",
      baseUrl: null,
      rateCardId: "rc-tiny",
      inputPerMillion: 0.5,
      outputPerMillion: 0.000123,
      statusOverride: null,
      provider: "builtin",
      contextSize: 131072,
      upstreamModel: null,
      defaultMaxTokens: null,
      alertErrorRatePct: null,
      alertTtftMs: null,
      publishMetrics: false,
      apiKeyChanged: "no",
    });
    expect(added).toEqual([
      "Display name: Tiny",
      "Base URL: none",
      "Rate card: rc-tiny",
      "Input price: $0.50 per million tokens",
      "Output price: $0.000123 per million tokens",
      "Status override: none",
      "Provider: builtin",
      "Context size: 131,072 tokens",
      "Upstream model: same as the name",
      "Default max tokens: the context size",
      "Alert above error rate: no alert",
      "Alert above time to first token: no alert",
      "Publish platform-wide figures: no",
      "API key changed: no",
    ]);
    expect(read({ defaultMaxTokens: 4096, alertErrorRatePct: 5, alertTtftMs: 1500, publishMetrics: true, apiKeyChanged: "yes" })).toEqual([
      "Default max tokens: 4,096",
      "Alert above error rate: 5%",
      "Alert above time to first token: 1,500 ms",
      "Publish platform-wide figures: yes",
      "API key changed: yes",
    ]);
    expect(read({ models: ["tiny", "qwen3-32b"] })).toEqual(["Models: tiny, qwen3-32b"]);
    noJson(added);
  });

  it("reads a field it doesn't know in words: its name spaced, nested values as pairs, instants as dates", () => {
    const lines = read({
      retryPolicy: { maxAttempts: 3, backoff: "linear", jitter: true },
      pausedAt: Date.UTC(2026, 0, 2, 3, 4),
      note: null,
      tags: ["a", "b"],
    });
    expect(lines).toEqual(["Retry policy: max attempts 3, backoff linear, jitter yes", "Paused at: 02 Jan 2026, 03:04", "Note: none", "Tags: a, b"]);
    // A known field recorded in another shape (an older entry) still reads without JSON.
    expect(read({ budget: { amount: "5" } })).toEqual(["Budget: amount 5"]);
    expect(read(["a", "b"])).toEqual(["Value: a, b"]);
    expect(read({ limits: {} })).toEqual(["Limits: none"]);
    expect(read({ constructor: "x", grace: "toString" })).toEqual(["Constructor: x", "Grace period: toString"]);
    noJson(lines);
  });
});
