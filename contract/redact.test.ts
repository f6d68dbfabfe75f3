import { describe, expect, it } from "vitest";
import { redactUrl } from "./redact";

describe("redactUrl", () => {
  it("shortens an invite code in the join path", () => {
    expect(redactUrl("/api/v1/auth/join/ABCD1234EFGH")).toBe("/api/v1/auth/join/ABCD…");
    expect(redactUrl("/api/v1/auth/join/ABCD1234EFGH?x=1")).toBe("/api/v1/auth/join/ABCD…?x=1");
  });

  it("shortens the code in any spelling of a join path the router reads as one, or that a miss logs", () => {
    for (const target of [
      "/api/v1/auth/./join/ABCD1234EFGH",
      "/api/v1/auth/x/../join/ABCD1234EFGH",
      "/api/v1/auth/%6Aoin/ABCD1234EFGH",
      "/api/v1/auth/join/%41BCD1234EFGH",
      "/api/v1//auth/join/ABCD1234EFGH",
      "/API/v1/auth/JOIN/ABCD1234EFGH",
      "/api/v1/auth/join//ABCD1234EFGH",
      "/api/v1/auth/join/ABCD1234%2FEFGH",
    ]) {
      expect(redactUrl(target), target).not.toContain("1234EFGH");
      expect(redactUrl(target), target).toMatch(/\/join\/+ABCD…$/i);
    }
  });

  it("replaces OAuth callbacks' code and state, and keeps the rest as sent", () => {
    expect(redactUrl("/api/v1/auth/google/callback?code=KnrCaL9DMEF8&state=s3cr3t&scope=email%20openid")).toBe(
      "/api/v1/auth/google/callback?code=[redacted]&state=[redacted]&scope=email%20openid",
    );
    expect(redactUrl("/api/v1/auth/github/callback?State=x&CODE=y")).toBe("/api/v1/auth/github/callback?State=[redacted]&CODE=[redacted]");
  });

  it("replaces the client secret Stripe adds to the page it returns to, and keeps the intent's id", () => {
    expect(redactUrl("/billing?setup_intent=seti_1Abc&setup_intent_client_secret=seti_1Abc_secret_XyZ&redirect_status=succeeded")).toBe(
      "/billing?setup_intent=seti_1Abc&setup_intent_client_secret=[redacted]&redirect_status=succeeded",
    );
    expect(redactUrl("/billing?payment_intent=pi_1&payment_intent_client_secret=pi_1_secret_Q")).toBe(
      "/billing?payment_intent=pi_1&payment_intent_client_secret=[redacted]",
    );
    expect(redactUrl("/billing?Setup_Intent_Client_Secret=x&client_secret=y")).toBe("/billing?Setup_Intent_Client_Secret=[redacted]&client_secret=[redacted]");
  });

  it("replaces an API key in a query, by its parameter's name or by its look, and anywhere in the target", () => {
    const key = "sk-j_n6XIMKW1u407Dxyicja08tlk-CXXxPDArfic8DRH0";
    expect(redactUrl(`/openai/v1/models?api_key=${key}`)).toBe("/openai/v1/models?api_key=[redacted]");
    expect(redactUrl("/openai/v1/models?key=AnyValue&limit=5")).toBe("/openai/v1/models?key=[redacted]&limit=5");
    expect(redactUrl(`/openai/v1/models?access_token=x&Token=y`)).toBe("/openai/v1/models?access_token=[redacted]&Token=[redacted]");
    expect(redactUrl(`/openai/v1/models?whatever=${key}`)).toBe("/openai/v1/models?whatever=[redacted]");
    expect(redactUrl(`/openai/v1/${key}/models`)).toBe("/openai/v1/[redacted]/models");
  });

  it("leaves other targets alone", () => {
    expect(redactUrl("/usage?from=2026-01-01&to=2026-02-01")).toBe("/usage?from=2026-01-01&to=2026-02-01");
    expect(redactUrl("/team")).toBe("/team");
  });
});
