import type { AppLoadContext } from "@remix-run/node";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { action } from "~/routes/_org.billing.setup-intent";
import { SETUP_MESSAGES } from "./messages";
import { requestClientSecret } from "./PaymentMethodSetup";

beforeAll(() => {
  process.env.SESSION_SECRET ??= "test-secret-test-secret-test-secret";
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The card form's first call, through the resource route, to a platform answering `body` (200). */
async function start(body: unknown): Promise<Response> {
  const context = {
    clientAddress: "127.0.0.1",
    platformFetch: async () => Response.json(body),
  } as unknown as AppLoadContext;
  const request = new Request("http://console.test/billing/setup-intent", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ intent: "start" }),
  });
  return action({ request, context, params: {} });
}

describe("the card form's SetupIntent", () => {
  it("a platform answer without a client secret reaches the browser as null, which says 'No client secret returned'", async () => {
    for (const body of [{}, { clientSecret: null }, { clientSecret: "" }]) {
      const answer = await start(body);
      expect(answer.status).toBe(200);
      expect(await answer.clone().json()).toEqual({ clientSecret: null });
      vi.stubGlobal("fetch", async () => answer);
      expect(await requestClientSecret(undefined)).toEqual({ error: SETUP_MESSAGES.noClientSecret });
    }
    expect(SETUP_MESSAGES.noClientSecret).toBe("No client secret returned");
  });

  it("passes a client secret on", async () => {
    const answer = await start({ clientSecret: "seti_1_secret_2" });
    expect(await answer.clone().json()).toEqual({ clientSecret: "seti_1_secret_2" });
    vi.stubGlobal("fetch", async () => answer);
    expect(await requestClientSecret(undefined)).toEqual({ clientSecret: "seti_1_secret_2" });
  });
});
