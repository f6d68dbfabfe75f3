import { Hono } from "hono";
import { z } from "zod";
import type { PlatformEnv } from "../context";
import { PlatformError } from "../http/errors";
import { inOrganization, signedIn } from "../http/middleware";
import { valid } from "../http/validate";
import {
  addFunds,
  confirmPaymentMethodSetup,
  getBalance,
  getConfig,
  getLedger,
  getPaymentMethod,
  handleWebhook,
  NOT_CONFIGURED,
  removePaymentMethod,
  setAutoPaymentConfig,
  startPaymentMethodSetup,
} from "./service";

const pageNumber = z.coerce.number().int().positive().optional();
const amount = z.coerce.number({ invalid_type_error: "Amount must be a number" }).finite("Amount must be a number");

/**
 * The Stripe webhook, mounted before the platform's Origin rule: it carries no session and is
 * authenticated by the signature over its raw body instead.
 */
export const billingWebhookRoutes = new Hono<PlatformEnv>().post("/webhook", async (c) => {
  const raw = await c.req.text();
  return c.json(await handleWebhook(c.var.deps, raw, c.req.header("stripe-signature")));
});

/** The billing calls of SPEC §7: every member of the active organization, nobody else. */
export const billingRoutes = new Hono<PlatformEnv>()
  .use(signedIn, inOrganization)
  .get("/balance", async (c) => c.json(await getBalance(c.var.deps, c.var.membership.orgId)))
  .get("/ledger", valid("query", z.object({ before: pageNumber, after: pageNumber, limit: pageNumber })), async (c) =>
    c.json(await getLedger(c.var.deps, c.var.membership.orgId, c.req.valid("query"))),
  )
  .get("/config", async (c) => c.json(await getConfig(c.var.deps, c.var.membership.orgId)))
  .get("/stripe-config", (c) => {
    const key = c.var.deps.config.stripe?.publishableKey;
    if (!key) throw new PlatformError(503, NOT_CONFIGURED);
    return c.json({ stripePublicKey: key });
  })
  .get("/payment-method", async (c) => c.json({ paymentMethod: await getPaymentMethod(c.var.deps, c.var.membership.orgId) }))
  .post("/payment-method", async (c) => c.json(await startPaymentMethodSetup(c.var.deps, c.var.membership.orgId, c.var.membership.orgName)))
  .post("/payment-method/confirm", valid("json", z.object({ setupIntentId: z.string().min(1, "setupIntentId is required").max(255) })), async (c) =>
    c.json(await confirmPaymentMethodSetup(c.var.deps, c.var.membership.orgId, c.req.valid("json").setupIntentId)),
  )
  .delete("/payment-method", async (c) => {
    await removePaymentMethod(c.var.deps, c.var.membership.orgId);
    return c.json({ ok: true });
  })
  .post("/add-funds", valid("json", z.object({ amount, idempotencyKey: z.string().min(8).max(100).optional() })), async (c) => {
    const body = c.req.valid("json");
    return c.json(await addFunds(c.var.deps, c.var.membership.orgId, body.amount, body.idempotencyKey));
  })
  .post(
    "/auto-payment-config",
    valid("json", z.object({ enabled: z.boolean(), thresholdAmount: z.coerce.number().finite().default(20), rechargeAmount: z.coerce.number().finite().default(10) })),
    async (c) => c.json(await setAutoPaymentConfig(c.var.deps, c.var.membership.orgId, c.req.valid("json"))),
  );
