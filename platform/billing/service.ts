import { randomUUID } from "node:crypto";
import type Stripe from "stripe";
import type { Deps } from "../context";
import type { DB } from "../db";
import type { PaymentMode } from "../db/schema";
import { PlatformError } from "../http/errors";
import type { PaymentProvider } from "../providers/stripe";
import { PaymentDeclined, paymentProvider } from "../providers/stripe";
import { centsToMicros, dollarsToMicros, microsToCents, microsToDollars } from "./money";
import { compiledOnce } from "../db/compiled";

/** Add funds and auto-recharge: 10 to 10,000 dollars (SPEC §5, §9). */
export const MIN_AMOUNT = 10;
export const MAX_AMOUNT = 10_000;
export const LEDGER_PAGE = 50;
export const LEDGER_MAX_PAGE = 200;
/** A claimed auto-recharge that never finished (a crash, a declined card) may be retried after this. */
export const RECHARGE_CLAIM_MS = 10 * 60_000;

export const NOT_CONFIGURED = "Payments are not configured";
export const NO_PAYMENT_METHOD = "No payment method on file. Add a payment method first.";
export const INVOICE_REFUSAL = "This organization is billed by invoice";

export interface LedgerRow {
  id: number;
  timestamp: string;
  description: string;
  model: string | null;
  rateCardId: string | null;
  change: number;
}

export interface BillingConfig {
  paymentMode: PaymentMode;
  autoPaymentConfig: { thresholdAmount: number; rechargeAmount: number } | null;
}

/** Every organization has an account row; it is created on first use. */
export async function ensureAccount(db: DB, orgId: number, now = Date.now()): Promise<void> {
  await db
    .insertInto("billing_accounts")
    .values({ org_id: orgId, updated_at: now })
    .onConflict((oc) => oc.column("org_id").doNothing())
    .execute();
}

async function account(deps: Deps, orgId: number) {
  await ensureAccount(deps.db, orgId, deps.now());
  return deps.db.selectFrom("billing_accounts").selectAll().where("org_id", "=", orgId).executeTakeFirstOrThrow();
}

function provider(deps: Deps): PaymentProvider {
  if (!deps.config.stripe) throw new PlatformError(503, NOT_CONFIGURED);
  return paymentProvider(deps.config.stripe);
}

export async function getBalance(deps: Deps, orgId: number): Promise<number> {
  return microsToDollars((await account(deps, orgId)).balance_micros);
}

export async function getConfig(deps: Deps, orgId: number): Promise<BillingConfig> {
  const a = await account(deps, orgId);
  return {
    paymentMode: a.payment_mode,
    autoPaymentConfig:
      a.auto_enabled && a.auto_threshold_micros !== null && a.auto_recharge_micros !== null
        ? { thresholdAmount: microsToDollars(a.auto_threshold_micros), rechargeAmount: microsToDollars(a.auto_recharge_micros) }
        : null,
  };
}

export async function getPaymentMethod(deps: Deps, orgId: number): Promise<{ brand: string | null; last4: string | null } | null> {
  const a = await account(deps, orgId);
  return a.payment_method_id ? { brand: a.payment_method_brand, last4: a.payment_method_last4 } : null;
}

const paymentMethodOf = compiledOnce((db, orgId: number) => db.selectFrom("billing_accounts").select("payment_method_id").where("org_id", "=", orgId));

export async function hasPaymentMethod(deps: Deps, orgId: number): Promise<boolean> {
  const [row] = await paymentMethodOf(deps.db, orgId);
  return Boolean(row?.payment_method_id);
}

/**
 * One page of the ledger, newest first. `before` pages to older rows, `after` to newer ones (keyset on
 * the `(org_id, id)` index, so a page costs the same with ten rows or a million).
 */
export async function getLedger(deps: Deps, orgId: number, page: { before?: number; after?: number; limit?: number }): Promise<LedgerRow[]> {
  const limit = Math.min(Math.max(page.limit ?? LEDGER_PAGE, 1), LEDGER_MAX_PAGE);
  let query = deps.db.selectFrom("ledger_entries").selectAll().where("org_id", "=", orgId);
  if (page.before !== undefined) query = query.where("id", "<", page.before);
  if (page.after !== undefined) query = query.where("id", ">", page.after);
  const rows =
    page.after !== undefined && page.before === undefined
      ? (await query.orderBy("id", "asc").limit(limit).execute()).reverse()
      : await query.orderBy("id", "desc").limit(limit).execute();
  return rows.map((r) => ({
    id: r.id,
    timestamp: new Date(r.created_at).toISOString(),
    description: r.description,
    model: r.model,
    rateCardId: r.rate_card_id,
    change: microsToDollars(r.change_micros),
  }));
}

/** Whether the organization may use a priced model: manual/auto need balance > 0; invoice always. */
export async function canSpend(deps: Deps, orgId: number): Promise<boolean> {
  const a = await account(deps, orgId);
  return a.payment_mode === "invoice" || a.balance_micros > 0;
}

/**
 * Debits usage: one ledger row + the balance change in one transaction; then (outside the
 * transaction) triggers at most one auto-recharge if an auto-mode balance fell under the threshold.
 */
export async function recordUsage(
  deps: Deps,
  usage: { orgId: number; model: string; rateCardId: string | null; costMicros: number; description: string },
): Promise<void> {
  const cost = Math.max(0, Math.round(usage.costMicros));
  await ensureAccount(deps.db, usage.orgId, deps.now());
  const after = await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto("ledger_entries")
      .values({
        org_id: usage.orgId,
        created_at: deps.now(),
        description: usage.description,
        model: usage.model,
        rate_card_id: usage.rateCardId,
        change_micros: -cost,
        payment_intent_id: null,
      })
      .execute();
    return trx
      .updateTable("billing_accounts")
      .set((eb) => ({ balance_micros: eb("balance_micros", "-", cost), updated_at: deps.now() }))
      .where("org_id", "=", usage.orgId)
      .returning(["balance_micros", "payment_mode", "auto_enabled", "auto_threshold_micros"])
      .executeTakeFirstOrThrow();
  });
  if (after.payment_mode === "auto" && after.auto_enabled && after.auto_threshold_micros !== null && after.balance_micros < after.auto_threshold_micros) {
    try {
      await autoRecharge(deps, usage.orgId);
    } catch (error) {
      console.error(`Auto-recharge of organization ${usage.orgId} failed:`, error);
    }
  }
}

/**
 * Credits a payment: the ledger row (unique on the payment intent) and the balance in one transaction.
 * Returns false when this payment was already credited (webhook and synchronous answer both arriving).
 */
export async function creditPayment(
  deps: Deps,
  payment: { orgId: number; paymentIntentId: string; amountMicros: number; description: string },
  trx?: DB,
): Promise<boolean> {
  const run = async (db: DB) => {
    const inserted = await db
      .insertInto("ledger_entries")
      .values({
        org_id: payment.orgId,
        created_at: deps.now(),
        description: payment.description,
        model: null,
        rate_card_id: null,
        change_micros: payment.amountMicros,
        payment_intent_id: payment.paymentIntentId,
      })
      .onConflict((oc) => oc.column("payment_intent_id").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!inserted) return false;
    await db
      .updateTable("billing_accounts")
      .set((eb) => ({ balance_micros: eb("balance_micros", "+", payment.amountMicros), updated_at: deps.now() }))
      .where("org_id", "=", payment.orgId)
      .execute();
    return true;
  };
  await ensureAccount(trx ?? deps.db, payment.orgId, deps.now());
  return trx ? run(trx) : deps.db.transaction().execute((t) => run(t));
}

const DESCRIPTIONS = { add_funds: "Added funds", auto_recharge: "Auto-recharge" } as const;

/** Charges the saved card off-session; credits the ledger once the charge has succeeded. */
async function chargeAndCredit(
  deps: Deps,
  a: { org_id: number; stripe_customer_id: string | null; payment_method_id: string | null },
  amountMicros: number,
  kind: "add_funds" | "auto_recharge",
  idempotencyKey: string,
): Promise<void> {
  if (!a.stripe_customer_id || !a.payment_method_id) throw new PlatformError(400, NO_PAYMENT_METHOD);
  const stripe = provider(deps);
  let intent;
  try {
    intent = await stripe.charge({
      customerId: a.stripe_customer_id,
      paymentMethodId: a.payment_method_id,
      amountCents: microsToCents(amountMicros),
      idempotencyKey,
      orgId: a.org_id,
      kind,
      description: DESCRIPTIONS[kind],
    });
  } catch (error) {
    if (error instanceof PaymentDeclined) throw new PlatformError(402, error.message);
    console.error("Stripe charge failed:", error);
    throw new PlatformError(502, "The payment provider could not be reached. Please try again.");
  }
  if (intent.status !== "succeeded") {
    throw new PlatformError(402, "The payment did not go through. Please check your payment method.");
  }
  await creditPayment(deps, { orgId: a.org_id, paymentIntentId: intent.id, amountMicros: centsToMicros(intent.amountCents), description: DESCRIPTIONS[kind] });
}

export function checkAmount(amount: number, what = "Amount"): void {
  if (!Number.isFinite(amount) || amount < MIN_AMOUNT) throw new PlatformError(400, `${what} must be at least $${MIN_AMOUNT}`);
  if (amount > MAX_AMOUNT) throw new PlatformError(400, `${what} must be at most $${MAX_AMOUNT.toLocaleString("en-US")}`);
}

/** `POST /billing/add-funds`: `key` (a nonce from the form) makes a double submit one charge. */
export async function addFunds(deps: Deps, orgId: number, amount: number, key?: string): Promise<{ balance: number }> {
  checkAmount(amount);
  const a = await account(deps, orgId);
  if (a.payment_mode === "invoice") throw new PlatformError(409, `${INVOICE_REFUSAL}: adding funds is not available`);
  if (!a.payment_method_id) throw new PlatformError(400, NO_PAYMENT_METHOD);
  await chargeAndCredit(deps, a, dollarsToMicros(amount), "add_funds", `add-funds:${orgId}:${key ?? randomUUID()}`);
  return { balance: await getBalance(deps, orgId) };
}

/** Charges one recharge if the balance is under the threshold and no other recharge holds the claim. */
export async function autoRecharge(deps: Deps, orgId: number): Promise<boolean> {
  const claimedAt = deps.now();
  const claimed = await deps.db
    .updateTable("billing_accounts")
    .set({ recharge_claimed_at: claimedAt })
    .where("org_id", "=", orgId)
    .where("payment_mode", "=", "auto")
    .where("auto_enabled", "=", 1)
    .where("payment_method_id", "is not", null)
    .where((eb) => eb("balance_micros", "<", eb.ref("auto_threshold_micros")))
    .where((eb) => eb.or([eb("recharge_claimed_at", "is", null), eb("recharge_claimed_at", "<", claimedAt - RECHARGE_CLAIM_MS)]))
    .returningAll()
    .executeTakeFirst();
  if (!claimed || claimed.auto_recharge_micros === null) return false;
  // Keyed by the claim, so a retried request is still one charge.
  await chargeAndCredit(deps, claimed, claimed.auto_recharge_micros, "auto_recharge", `auto-recharge:${orgId}:${claimedAt}`);
  // Released only after success: a declined card is not retried on every debit, but after the claim expires.
  await deps.db.updateTable("billing_accounts").set({ recharge_claimed_at: null }).where("org_id", "=", orgId).where("recharge_claimed_at", "=", claimedAt).execute();
  return true;
}

export async function setAutoPaymentConfig(
  deps: Deps,
  orgId: number,
  input: { enabled: boolean; thresholdAmount: number; rechargeAmount: number },
): Promise<BillingConfig> {
  const a = await account(deps, orgId);
  if (a.payment_mode === "invoice") throw new PlatformError(409, `${INVOICE_REFUSAL}: auto-payment is not available`);
  if (input.enabled) {
    if (!Number.isFinite(input.thresholdAmount) || input.thresholdAmount < 0) throw new PlatformError(400, "Threshold amount must be non-negative");
    if (input.thresholdAmount > MAX_AMOUNT) throw new PlatformError(400, `Threshold amount must be at most $${MAX_AMOUNT.toLocaleString("en-US")}`);
    if (!Number.isFinite(input.rechargeAmount) || input.rechargeAmount < MIN_AMOUNT) throw new PlatformError(400, "Recharge amount must be at least $10");
    if (input.rechargeAmount > MAX_AMOUNT) throw new PlatformError(400, `Recharge amount must be at most $${MAX_AMOUNT.toLocaleString("en-US")}`);
    if (!a.payment_method_id) throw new PlatformError(400, NO_PAYMENT_METHOD);
    await deps.db
      .updateTable("billing_accounts")
      .set({
        payment_mode: "auto",
        auto_enabled: 1,
        auto_threshold_micros: dollarsToMicros(input.thresholdAmount),
        auto_recharge_micros: dollarsToMicros(input.rechargeAmount),
        recharge_claimed_at: null,
        updated_at: deps.now(),
      })
      .where("org_id", "=", orgId)
      .where("payment_mode", "!=", "invoice")
      .execute();
  } else {
    await deps.db
      .updateTable("billing_accounts")
      .set({ payment_mode: "manual", auto_enabled: 0, updated_at: deps.now() })
      .where("org_id", "=", orgId)
      .where("payment_mode", "!=", "invoice")
      .execute();
  }
  return getConfig(deps, orgId);
}

/** The operator's setting (`npm run billing-mode`, later the organization editor). */
export async function setPaymentMode(deps: Deps, orgId: number, mode: PaymentMode): Promise<void> {
  await ensureAccount(deps.db, orgId, deps.now());
  await deps.db.updateTable("billing_accounts").set({ payment_mode: mode, updated_at: deps.now() }).where("org_id", "=", orgId).execute();
}

/** `POST /billing/payment-method`: the Stripe customer on first use, then a SetupIntent for the card form. */
export async function startPaymentMethodSetup(deps: Deps, orgId: number, orgName: string): Promise<{ clientSecret: string }> {
  const stripe = provider(deps);
  let a = await account(deps, orgId);
  if (!a.stripe_customer_id) {
    const customerId = await stripe.createCustomer({ orgId, name: orgName });
    // Two racing first setups: the first customer recorded wins and both use it.
    await deps.db.updateTable("billing_accounts").set({ stripe_customer_id: customerId }).where("org_id", "=", orgId).where("stripe_customer_id", "is", null).execute();
    a = await account(deps, orgId);
  }
  const intent = await stripe.createSetupIntent({ customerId: a.stripe_customer_id!, orgId });
  return { clientSecret: intent.clientSecret };
}

/** Records a succeeded setup's card (card details fetched before, no network call in a transaction). */
async function recordPaymentMethod(deps: Deps, orgId: number, paymentMethodId: string): Promise<void> {
  const stripe = provider(deps);
  const card = await stripe.retrievePaymentMethod(paymentMethodId);
  const before = await account(deps, orgId);
  if (before.payment_method_id === paymentMethodId) return;
  await deps.db
    .updateTable("billing_accounts")
    .set({ payment_method_id: paymentMethodId, payment_method_brand: card.brand, payment_method_last4: card.last4, recharge_claimed_at: null, updated_at: deps.now() })
    .where("org_id", "=", orgId)
    .execute();
  // An update replaces the card: the old one is detached from the customer.
  if (before.payment_method_id) {
    await stripe.detachPaymentMethod(before.payment_method_id).catch((error) => console.error("Detaching the replaced payment method failed:", error));
  }
}

/**
 * The synchronous path after the browser returns with `setup_intent`: the SetupIntent is retrieved from
 * Stripe and its card recorded if it succeeded, so the page is right at once without the webhook.
 */
export async function confirmPaymentMethodSetup(deps: Deps, orgId: number, setupIntentId: string): Promise<{ hasPaymentMethod: boolean }> {
  const stripe = provider(deps);
  const a = await account(deps, orgId);
  let intent;
  try {
    intent = await stripe.retrieveSetupIntent(setupIntentId);
  } catch {
    throw new PlatformError(404, "Setup not found");
  }
  if (!a.stripe_customer_id || intent.customerId !== a.stripe_customer_id) throw new PlatformError(404, "Setup not found");
  if (intent.status !== "succeeded" || !intent.paymentMethodId) throw new PlatformError(409, "The payment method setup has not succeeded");
  await recordPaymentMethod(deps, orgId, intent.paymentMethodId);
  return { hasPaymentMethod: true };
}

export async function removePaymentMethod(deps: Deps, orgId: number): Promise<void> {
  const stripe = provider(deps);
  const a = await account(deps, orgId);
  if (!a.payment_method_id) throw new PlatformError(404, "No payment method on file");
  try {
    await stripe.detachPaymentMethod(a.payment_method_id);
  } catch (error) {
    console.error("Detaching the payment method failed:", error);
    throw new PlatformError(502, "Failed to remove payment method");
  }
  await deps.db
    .updateTable("billing_accounts")
    .set({ payment_method_id: null, payment_method_brand: null, payment_method_last4: null, updated_at: deps.now() })
    .where("org_id", "=", orgId)
    .where("payment_method_id", "=", a.payment_method_id)
    .execute();
}

/** Stripe's events, each handled once: the event id is recorded in the transaction that applies it. */
export async function handleWebhook(deps: Deps, rawBody: string, signature: string | undefined): Promise<{ received: true; duplicate?: true }> {
  const stripe = provider(deps);
  if (!deps.config.stripe?.webhookSecret) throw new PlatformError(503, NOT_CONFIGURED);
  let event: Stripe.Event;
  try {
    event = stripe.verifyWebhook(rawBody, signature ?? "");
  } catch {
    throw new PlatformError(400, "Invalid signature");
  }

  const seen = await deps.db.selectFrom("stripe_events").select("id").where("id", "=", event.id).executeTakeFirst();
  if (seen) return { received: true, duplicate: true };

  if (event.type === "setup_intent.succeeded") {
    const intent = event.data.object;
    const customerId = typeof intent.customer === "string" ? intent.customer : (intent.customer?.id ?? null);
    const methodId = typeof intent.payment_method === "string" ? intent.payment_method : (intent.payment_method?.id ?? null);
    const owner = customerId ? await deps.db.selectFrom("billing_accounts").select("org_id").where("stripe_customer_id", "=", customerId).executeTakeFirst() : undefined;
    // The card details come from Stripe before the transaction below (no network call inside one).
    if (owner && methodId) await recordPaymentMethod(deps, owner.org_id, methodId);
    const first = await markEvent(deps, event);
    return first ? { received: true } : { received: true, duplicate: true };
  }

  if (event.type === "payment_intent.succeeded") {
    const intent = event.data.object;
    const orgId = Number(intent.metadata?.org_id);
    const kind = intent.metadata?.kind === "auto_recharge" ? "auto_recharge" : "add_funds";
    const customerId = typeof intent.customer === "string" ? intent.customer : (intent.customer?.id ?? null);
    const owner = Number.isInteger(orgId)
      ? await deps.db.selectFrom("billing_accounts").select("org_id").where("org_id", "=", orgId).where("stripe_customer_id", "=", customerId).executeTakeFirst()
      : undefined;
    const duplicate = await deps.db.transaction().execute(async (trx) => {
      const first = await markEvent(deps, event, trx);
      if (first && owner) {
        await creditPayment(deps, { orgId: owner.org_id, paymentIntentId: intent.id, amountMicros: centsToMicros(intent.amount_received || intent.amount), description: DESCRIPTIONS[kind] }, trx);
      }
      return !first;
    });
    return duplicate ? { received: true, duplicate: true } : { received: true };
  }

  await markEvent(deps, event);
  return { received: true };
}

async function markEvent(deps: Deps, event: Stripe.Event, db: DB = deps.db): Promise<boolean> {
  const inserted = await db
    .insertInto("stripe_events")
    .values({ id: event.id, type: event.type, received_at: deps.now() })
    .onConflict((oc) => oc.column("id").doNothing())
    .returning("id")
    .executeTakeFirst();
  return Boolean(inserted);
}
