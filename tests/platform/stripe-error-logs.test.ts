import { format } from "node:util";
import Stripe from "stripe";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { stripeErrorText } from "../../platform/providers/stripe";
import { FakeStripe, TEST_CARDS } from "../fakes/stripe";
import type { Harness } from "./harness";
import { createHarness } from "./harness";

const WEBHOOK_SECRET = "whsec_test_secret";
const fake = new FakeStripe({ webhookSecret: WEBHOOK_SECRET });
let stripeConfig: { secretKey: string; publishableKey: string; webhookSecret: string; host: string; port: number; protocol: "http" };
let h: Harness;

beforeAll(async () => {
  const at = await fake.listen();
  stripeConfig = { secretKey: "sk_test_fake", publishableKey: "pk_test_fake", webhookSecret: WEBHOOK_SECRET, host: at.host, port: at.port, protocol: "http" };
});
afterAll(() => fake.close());
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.close();
});

describe("what the server logs of a failed Stripe call", () => {
  it("is one line: the error's message, code and Stripe's request id", async () => {
    h = await createHarness({ stripe: stripeConfig });
    const admin = await h.admin();
    const { clientSecret } = (await (await admin.call("POST", "/billing/payment-method")).json()) as { clientSecret: string };
    const confirmed = fake.confirmSetup(clientSecret, TEST_CARDS.ok);
    if (!confirmed.ok) throw new Error(confirmed.error.message);
    expect((await admin.call("POST", "/billing/payment-method/confirm", { setupIntentId: confirmed.setupIntent.id })).status).toBe(200);
    // Stripe no longer knows the card (removed in its dashboard): the detach is refused.
    fake.paymentMethods.delete(confirmed.setupIntent.payment_method!);
    const lines: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void lines.push(format(...args)));
    expect((await admin.call("DELETE", "/billing/payment-method")).status).toBe(502);
    expect(lines).toEqual([
      expect.stringMatching(/^Detaching the payment method failed: No such payment_method \(code resource_missing, Stripe request req_\w+\)$/),
    ]);
  });

  it("never holds the intent a card error carries, nor its client_secret", () => {
    const declined = Stripe.errors.StripeError.generate({
      type: "card_error",
      code: "card_declined",
      message: "Your card was declined.",
      requestId: "req_123",
      payment_intent: { id: "pi_1", client_secret: "pi_1_secret_abc" },
    } as Parameters<typeof Stripe.errors.StripeError.generate>[0]);
    expect(stripeErrorText(declined)).toBe("Your card was declined. (code card_declined, Stripe request req_123)");
    expect(stripeErrorText(new Error("connect ECONNREFUSED 127.0.0.1:12111"))).toBe("connect ECONNREFUSED 127.0.0.1:12111");
  });
});
