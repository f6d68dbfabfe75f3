import { Hono } from "hono";
import type { Ok } from "@contract/session";
import { addFundsSchema, autoPaymentSchema, confirmSetupSchema, ledgerQuerySchema, NOT_CONFIGURED } from "@contract/billing";
import type { PlatformEnv } from "../context";
import { PlatformError } from "../http/errors";
import { inOrganization, signedIn } from "../http/middleware";
import { valid } from "../http/validate";
import { getBalance, getConfig, getPaymentMethod } from "./accounts";
import { addFunds, getRechargeStatus, saveAutoPaymentConfig } from "./charges";
import { getLedger } from "./ledger";
import { ledgerCsv } from "./ledger-export";
import { ledgerExportQuerySchema } from "@contract/usage";
import { confirmPaymentMethodSetup, removePaymentMethod, startPaymentMethodSetup } from "./payment-method";
import { handleWebhook } from "./webhook";
import { spendCapSchema } from "@contract/billing";
import { adminOnly } from "../http/middleware";
import { getSpendCap, setSpendCap } from "../spend/cap";

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
  .get("/ledger/export", valid("query", ledgerExportQuerySchema), async (c) => ledgerCsv(c.var.deps, c.var.membership.orgId, c.req.valid("query")))
  .get("/ledger", valid("query", ledgerQuerySchema), async (c) => c.json(await getLedger(c.var.deps, c.var.membership.orgId, c.req.valid("query"))))
  .get("/config", async (c) => c.json(await getConfig(c.var.deps, c.var.membership.orgId)))
  .get("/recharges", async (c) => c.json(await getRechargeStatus(c.var.deps, c.var.membership.orgId)))
  .get("/stripe-config", (c) => {
    const key = c.var.deps.config.stripe?.publishableKey;
    if (!key) throw new PlatformError(503, NOT_CONFIGURED);
    return c.json({ stripePublicKey: key });
  })
  .get("/payment-method", async (c) => c.json({ paymentMethod: await getPaymentMethod(c.var.deps, c.var.membership.orgId) }))
  .post("/payment-method", async (c) => c.json(await startPaymentMethodSetup(c.var.deps, c.var.membership.orgId, c.var.membership.orgName)))
  .post("/payment-method/confirm", valid("json", confirmSetupSchema), async (c) =>
    c.json(await confirmPaymentMethodSetup(c.var.deps, c.var.membership.orgId, c.req.valid("json").setupIntentId)),
  )
  .delete("/payment-method", async (c) => {
    await removePaymentMethod(c.var.deps, c.var.membership.orgId);
    return c.json<Ok>({ ok: true });
  })
  .post("/add-funds", valid("json", addFundsSchema), async (c) => {
    const body = c.req.valid("json");
    return c.json(await addFunds(c.var.deps, c.var.membership.orgId, body.amount, body.idempotencyKey));
  })
  .post("/auto-payment-config", valid("json", autoPaymentSchema), async (c) =>
    c.json(await saveAutoPaymentConfig(c.var.deps, c.var.membership.orgId, c.req.valid("json"))),
  )
  // Spend control (issue 11): the organization's monthly cap, set by admins.
  .get("/spend-cap", async (c) => c.json(await getSpendCap(c.var.deps, c.var.membership.orgId)))
  .post("/spend-cap", adminOnly, valid("json", spendCapSchema), async (c) =>
    c.json(await setSpendCap(c.var.deps, c.var.membership.orgId, c.var.caller.userId, c.req.valid("json"))),
  );
