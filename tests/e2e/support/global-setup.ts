import { request } from "@playwright/test";
import { FakeStripe } from "../../fakes/stripe";
import { OPERATOR, signInWithRequests } from "./auth";
import { STRIPE_FAKE_PORT, STRIPE_WEBHOOK_SECRET } from "./billing";

/** The first user ever to sign in becomes the system admin (DESIGN §3): make that the operator. */
export default async function globalSetup() {
  const context = await request.newContext({ baseURL: process.env.E2E_BASE_URL });
  await signInWithRequests(context, OPERATOR);
  await context.dispose();

  // The fake Stripe API the server's STRIPE_API_* settings point at; it also delivers signed webhooks
  // (each twice, as Stripe may) to the server, so the tests see the webhook and the synchronous path race.
  const stripe = new FakeStripe({
    webhookSecret: STRIPE_WEBHOOK_SECRET,
    webhookUrl: `${process.env.E2E_BASE_URL}/api/v1/billing/webhook`,
    duplicateWebhooks: true,
  });
  await stripe.listen(STRIPE_FAKE_PORT);
  return () => stripe.close();
}
