import { AMOUNT_TOO_SMALL, RECHARGE_TOO_SMALL, THRESHOLD_NEGATIVE } from "@contract/billing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setPaymentMode } from "../../platform/billing/accounts";
import { rechargesFinished, recordUsage } from "../../platform/billing/charges";
import { creditPayment } from "../../platform/billing/ledger";
import { FakeStripe, TEST_CARDS } from "../fakes/stripe";
import type { Harness, Session } from "./harness";
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
beforeEach(async () => {
  h = await createHarness({ stripe: stripeConfig });
});
afterEach(() => h.close());

/** Sets up a card the way the console does: setup intent, the card form's confirm, the synchronous record. */
async function addCard(session: Session, card: string = TEST_CARDS.ok) {
  const setup = await session.call("POST", "/billing/payment-method");
  expect(setup.status).toBe(200);
  const { clientSecret } = await setup.json();
  const confirmed = fake.confirmSetup(clientSecret, card);
  if (!confirmed.ok) throw new Error(confirmed.error.message);
  const recorded = await session.call("POST", "/billing/payment-method/confirm", { setupIntentId: confirmed.setupIntent.id });
  expect(recorded.status).toBe(200);
  return confirmed.setupIntent;
}

async function json(response: Response) {
  return response.json();
}

async function sumOfLedger(orgId: number): Promise<number> {
  const row = await h.deps.db
    .selectFrom("ledger_entries")
    .select((eb) => eb.fn.sum<number>("change_micros").as("total"))
    .where("org_id", "=", orgId)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

async function balanceMicros(orgId: number): Promise<number> {
  const row = await h.deps.db.selectFrom("billing_accounts").select("balance_micros").where("org_id", "=", orgId).executeTakeFirstOrThrow();
  return row.balance_micros;
}

describe("reading billing", () => {
  it("starts a new organization at zero, manual mode, no config, an empty ledger", async () => {
    const admin = await h.admin();
    expect(await json(await admin.call("GET", "/billing/balance"))).toBe(0);
    expect(await json(await admin.call("GET", "/billing/config"))).toEqual({ paymentMode: "manual", autoPaymentConfig: null });
    expect(await json(await admin.call("GET", "/billing/ledger"))).toEqual([]);
    expect(await json(await admin.call("GET", "/billing/stripe-config"))).toEqual({ stripePublicKey: "pk_test_fake" });
  });

  it("answers 503 with an error when Stripe is not configured", async () => {
    const bare = await createHarness();
    const admin = await bare.admin();
    const response = await admin.call("GET", "/billing/stripe-config");
    expect(response.status).toBe(503);
    expect((await response.json()).error).toBeTruthy();
    await bare.close();
  });

  it("is open to every member and closed to the signed-out and the organization-less", async () => {
    const admin = await h.admin();
    const invite = await json(await admin.call("POST", "/organizations/invites", { status: "single-use" }));
    const member = await h.signIn();
    expect((await member.call("POST", `/auth/join/${invite.code}`)).status).toBe(200);
    await member.call("POST", "/auth/switch", { organizationId: admin.orgId });
    expect((await member.call("GET", "/billing/balance")).status).toBe(200);
    expect((await member.call("POST", "/billing/payment-method")).status).toBe(200);
    expect((await h.fetch("/billing/balance")).status).toBe(401);
    const loner = await h.signIn();
    expect((await loner.call("GET", "/billing/ledger")).status).toBe(403);
  });

  it("pages the ledger newest first, 50 a page, with ?before= and ?after=", async () => {
    const admin = await h.admin();
    for (let i = 1; i <= 120; i++) await recordUsage(h.deps, { orgId: admin.orgId, model: "m", rateCardId: "rc-1", costMicros: 1000, description: `use ${i}` });
    const first = await json(await admin.call("GET", "/billing/ledger"));
    expect(first).toHaveLength(50);
    expect(first[0]).toMatchObject({ description: "use 120", model: "m", rateCardId: "rc-1", change: -0.001 });
    expect(new Date(first[0].timestamp).toISOString()).toBe(first[0].timestamp);
    const second = await json(await admin.call("GET", `/billing/ledger?before=${first[49].id}`));
    expect(second[0].description).toBe("use 70");
    const third = await json(await admin.call("GET", `/billing/ledger?before=${second[49].id}`));
    expect(third).toHaveLength(20);
    const back = await json(await admin.call("GET", `/billing/ledger?after=${second[0].id}`));
    expect(back.map((r: { id: number }) => r.id)).toEqual(first.map((r: { id: number }) => r.id));
  });

  it("answers 404 to another organization's payment setup and never shows its ledger", async () => {
    const owner = await h.admin("Owner");
    const setup = await addCard(owner);
    await recordUsage(h.deps, { orgId: owner.orgId, model: "m", rateCardId: null, costMicros: 5_000_000, description: "owner usage" });
    const outsider = await h.admin("Outsider");
    const response = await outsider.call("POST", "/billing/payment-method/confirm", { setupIntentId: setup.id });
    expect(response.status).toBe(404);
    expect((await response.json()).error).toBeTruthy();
    expect(await json(await outsider.call("GET", "/billing/ledger"))).toEqual([]);
    expect(await json(await outsider.call("GET", "/billing/balance"))).toBe(0);
  });
});

describe("payment method", () => {
  it("creates the customer once, records the card synchronously, and the session follows", async () => {
    const admin = await h.admin();
    await addCard(admin);
    const session = await json(await admin.call("GET", "/auth/session"));
    expect(session.activeOrganization.hasPaymentMethod).toBe(true);
    expect(await json(await admin.call("GET", "/billing/payment-method"))).toEqual({ paymentMethod: { brand: "visa", last4: "4242" } });
    // An update reuses the customer and replaces the card.
    const customers = fake.customers.size;
    await addCard(admin, "5555555555554444");
    expect(fake.customers.size).toBe(customers);
    expect(await json(await admin.call("GET", "/billing/payment-method"))).toEqual({ paymentMethod: { brand: "mastercard", last4: "4444" } });
  });

  it("refuses to record a setup that has not succeeded", async () => {
    const admin = await h.admin();
    const { clientSecret } = await json(await admin.call("POST", "/billing/payment-method"));
    const declined = fake.confirmSetup(clientSecret, TEST_CARDS.declinedAtSetup);
    expect(declined.ok).toBe(false);
    const intentId = clientSecret.split("_secret_")[0];
    expect((await admin.call("POST", "/billing/payment-method/confirm", { setupIntentId: intentId })).status).toBe(409);
    expect((await json(await admin.call("GET", "/auth/session"))).activeOrganization.hasPaymentMethod).toBe(false);
  });

  it("records the card from the signed setup_intent.succeeded webhook, once, and refuses a bad signature", async () => {
    const admin = await h.admin();
    const { clientSecret } = await json(await admin.call("POST", "/billing/payment-method"));
    const done = fake.confirmSetup(clientSecret);
    if (!done.ok) throw new Error("setup failed");
    const event = fake.event("setup_intent.succeeded", done.setupIntent);
    const bad = await h.fetch("/billing/webhook", {
      method: "POST",
      body: event.payload,
      headers: { "stripe-signature": "t=1,v1=deadbeef", origin: "https://elsewhere.test" },
    });
    expect(bad.status).toBe(400);
    // A cross-origin header does not matter: the webhook is outside the Origin rule.
    const first = await h.fetch("/billing/webhook", {
      method: "POST",
      body: event.payload,
      headers: { "stripe-signature": event.signature, origin: "https://elsewhere.test" },
    });
    expect(await first.json()).toEqual({ received: true });
    const again = await h.fetch("/billing/webhook", { method: "POST", body: event.payload, headers: { "stripe-signature": event.signature } });
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    expect((await json(await admin.call("GET", "/auth/session"))).activeOrganization.hasPaymentMethod).toBe(true);
  });

  it("names the member who added the card when the webhook records it before their return, with no address of Stripe's (decision 0138)", async () => {
    const { admin, member: setupBy } = await h.team();
    const { clientSecret } = await json(await setupBy.call("POST", "/billing/payment-method"));
    const done = fake.confirmSetup(clientSecret);
    if (!done.ok) throw new Error("setup failed");
    const event = fake.event("setup_intent.succeeded", done.setupIntent);
    const delivered = await h.fetch("/billing/webhook", { method: "POST", body: event.payload, headers: { "stripe-signature": event.signature } });
    expect(await delivered.json()).toEqual({ received: true });
    // The person's own return finds the card recorded: nothing more is written.
    expect((await setupBy.call("POST", "/billing/payment-method/confirm", { setupIntentId: clientSecret.split("_secret_")[0] })).status).toBe(200);
    const entries = await h.deps.db
      .selectFrom("audit_log")
      .select(["actor_id", "address"])
      .where("org_id", "=", admin.orgId)
      .where("action", "=", "payment_method.added")
      .execute();
    expect(entries).toEqual([{ actor_id: setupBy.userId, address: null }]);
  });

  it("still refuses other cross-origin billing calls", async () => {
    const admin = await h.admin();
    const response = await h.fetch("/billing/add-funds", {
      method: "POST",
      cookie: admin.cookie,
      json: { amount: 10 },
      headers: { origin: "https://elsewhere.test" },
    });
    expect(response.status).toBe(403);
  });

  it("removes the card: detached at Stripe, and the session follows", async () => {
    const admin = await h.admin();
    await addCard(admin);
    const pm = (await h.deps.db.selectFrom("billing_accounts").select("payment_method_id").where("org_id", "=", admin.orgId).executeTakeFirstOrThrow())
      .payment_method_id!;
    expect((await admin.call("DELETE", "/billing/payment-method")).status).toBe(200);
    expect(fake.paymentMethods.get(pm)?.customer).toBeNull();
    expect((await json(await admin.call("GET", "/auth/session"))).activeOrganization.hasPaymentMethod).toBe(false);
    expect((await admin.call("DELETE", "/billing/payment-method")).status).toBe(404);
  });

  async function deliver(setupIntent: unknown) {
    const event = fake.event("setup_intent.succeeded", setupIntent);
    const response = await h.fetch("/billing/webhook", { method: "POST", body: event.payload, headers: { "stripe-signature": event.signature } });
    expect(response.status).toBe(200);
  }

  it("does not put back a removed card when the setup's webhook arrives after the removal", async () => {
    const admin = await h.admin();
    const setup = await addCard(admin);
    expect((await admin.call("DELETE", "/billing/payment-method")).status).toBe(200);
    await deliver(setup);
    expect(await json(await admin.call("GET", "/billing/payment-method"))).toEqual({ paymentMethod: null });
    expect((await json(await admin.call("GET", "/auth/session"))).activeOrganization.hasPaymentMethod).toBe(false);
    // Nor does the browser's late return: it is told the card was removed.
    const late = await admin.call("POST", "/billing/payment-method/confirm", { setupIntentId: setup.id });
    expect(late.status).toBe(409);
    expect((await json(late)).error).toBe("This card was removed. Add a payment method again.");
  });

  it("does not put back a replaced card when its webhook arrives after the new one", async () => {
    const admin = await h.admin();
    const first = await addCard(admin);
    await addCard(admin, "5555555555554444");
    await deliver(first);
    expect(await json(await admin.call("GET", "/billing/payment-method"))).toEqual({ paymentMethod: { brand: "mastercard", last4: "4444" } });
  });

  it("refuses a card removed while its webhook was fetching it from Stripe", async () => {
    const admin = await h.admin();
    const setup = await addCard(admin);
    const pm = setup.payment_method as string;
    // Stripe still shows the card attached (the webhook read it before the removal's detach landed).
    const detached = fake.paymentMethods.get(pm)!;
    expect((await admin.call("DELETE", "/billing/payment-method")).status).toBe(200);
    detached.customer = setup.customer;
    await deliver(setup);
    expect(await json(await admin.call("GET", "/billing/payment-method"))).toEqual({ paymentMethod: null });
  });

  it("records a card whose webhook comes before the browser's return, once", async () => {
    const admin = await h.admin();
    const { clientSecret } = await json(await admin.call("POST", "/billing/payment-method"));
    const done = fake.confirmSetup(clientSecret);
    if (!done.ok) throw new Error("setup failed");
    await deliver(done.setupIntent);
    const recorded = await admin.call("POST", "/billing/payment-method/confirm", { setupIntentId: done.setupIntent.id });
    expect(await json(recorded)).toEqual({ hasPaymentMethod: true });
    const added = await h.deps.db
      .selectFrom("audit_log")
      .select("action")
      .where("org_id", "=", admin.orgId)
      .where("action", "=", "payment_method.added")
      .execute();
    expect(added).toHaveLength(1);
  });
});

describe("POST /billing/add-funds", () => {
  it("refuses below $10 and above $10,000 with a 400 error, charging nothing", async () => {
    const admin = await h.admin();
    await addCard(admin);
    const before = fake.chargeAttempts.length;
    for (const [amount, text] of [
      [9.99, "at least $10"],
      [10_000.01, "at most $10,000"],
      ["ten", "number"],
    ] as const) {
      const response = await admin.call("POST", "/billing/add-funds", { amount });
      expect(response.status).toBe(400);
      expect((await response.json()).error).toContain(text);
    }
    expect(fake.chargeAttempts.length).toBe(before);
  });

  it("names the refused amount as the form's field", async () => {
    const admin = await h.admin();
    const response = await admin.call("POST", "/billing/add-funds", { amount: 5 });
    expect(await response.json()).toEqual({ error: AMOUNT_TOO_SMALL, fields: { amount: AMOUNT_TOO_SMALL } });
    const auto = await admin.call("POST", "/billing/auto-payment-config", { enabled: true, thresholdAmount: -1, rechargeAmount: 9 });
    expect(await auto.json()).toEqual({ error: THRESHOLD_NEGATIVE, fields: { thresholdAmount: THRESHOLD_NEGATIVE, rechargeAmount: RECHARGE_TOO_SMALL } });
  });

  it("refuses without a payment method", async () => {
    const admin = await h.admin();
    const response = await admin.call("POST", "/billing/add-funds", { amount: 25 });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatch(/payment method/i);
  });

  it("charges, credits the ledger once and answers the new balance", async () => {
    const admin = await h.admin();
    await addCard(admin);
    const response = await admin.call("POST", "/billing/add-funds", { amount: 25 });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ balance: 25 });
    const ledger = await json(await admin.call("GET", "/billing/ledger"));
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ description: "Added funds", change: 25, model: null, rateCardId: null });
    expect(fake.successfulCharges.at(-1)?.amount).toBe(2500);
  });

  it("reports a declined card with 402 and credits nothing", async () => {
    const admin = await h.admin();
    await addCard(admin, TEST_CARDS.declinesCharges);
    const response = await admin.call("POST", "/billing/add-funds", { amount: 50 });
    expect(response.status).toBe(402);
    expect((await response.json()).error).toBe("Your card was declined.");
    expect(await json(await admin.call("GET", "/billing/balance"))).toBe(0);
    expect(await json(await admin.call("GET", "/billing/ledger"))).toEqual([]);
  });

  it("makes a double submit with one nonce one charge and one credit", async () => {
    const admin = await h.admin();
    await addCard(admin);
    const charges = fake.successfulCharges.length;
    const body = { amount: 10, idempotencyKey: "nonce-0123456789" };
    const [a, b] = await Promise.all([admin.call("POST", "/billing/add-funds", body), admin.call("POST", "/billing/add-funds", body)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(fake.successfulCharges.length).toBe(charges + 1);
    expect(await json(await admin.call("GET", "/billing/balance"))).toBe(10);
  });

  it("credits once when the webhook (twice) and the synchronous answer both arrive", async () => {
    const admin = await h.admin();
    await addCard(admin);
    await admin.call("POST", "/billing/add-funds", { amount: 25 });
    const intent = [...fake.paymentIntents.values()].filter((p) => p.status === "succeeded").at(-1)!;
    const event = fake.event("payment_intent.succeeded", intent);
    for (let i = 0; i < 2; i++) {
      const response = await h.fetch("/billing/webhook", { method: "POST", body: event.payload, headers: { "stripe-signature": event.signature } });
      expect(response.status).toBe(200);
    }
    // A second event id for the same payment (Stripe may resend as a new event) is still one credit.
    const other = fake.event("payment_intent.succeeded", intent);
    await h.fetch("/billing/webhook", { method: "POST", body: other.payload, headers: { "stripe-signature": other.signature } });
    expect(await json(await admin.call("GET", "/billing/balance"))).toBe(25);
    expect(await json(await admin.call("GET", "/billing/ledger"))).toHaveLength(1);
  });
  it("names who added funds when Stripe's webhook credits the payment first, with no address of Stripe's (decision 0138)", async () => {
    const admin = await h.admin();
    await addCard(admin);
    await admin.call("POST", "/billing/add-funds", { amount: 25 });
    const paid = [...fake.paymentIntents.values()].filter((p) => p.status === "succeeded").at(-1)!;
    expect(paid.metadata.user_id).toBe(String(admin.userId));
    // A payment whose synchronous answer never came: only the webhook credits it.
    const event = fake.event("payment_intent.succeeded", { ...paid, id: `${paid.id}_webhook_first` });
    await h.fetch("/billing/webhook", { method: "POST", body: event.payload, headers: { "stripe-signature": event.signature } });
    expect(await json(await admin.call("GET", "/billing/balance"))).toBe(50);
    const entries = await h.deps.db
      .selectFrom("audit_log")
      .select(["actor_id", "address"])
      .where("org_id", "=", admin.orgId)
      .where("action", "=", "funds.added")
      .orderBy("id")
      .execute();
    expect(entries.map((e) => e.actor_id)).toEqual([admin.userId, admin.userId]);
    expect(entries[1].address).toBeNull();
  });
});

describe("refunds and chargebacks made in Stripe", () => {
  const deliver = async (type: string, object: unknown, eventId?: string) => {
    const event = fake.event(type, object, eventId);
    const response = await h.fetch("/billing/webhook", { method: "POST", body: event.payload, headers: { "stripe-signature": event.signature } });
    expect(response.status).toBe(200);
    return event.id;
  };

  it("takes a refund out of the balance once, each partial refund by the total Stripe reports", async () => {
    const admin = await h.admin();
    await addCard(admin);
    await admin.call("POST", "/billing/add-funds", { amount: 25 });
    const intent = [...fake.paymentIntents.values()].filter((p) => p.status === "succeeded").at(-1)!;
    const charge = (refundedCents: number) => ({
      id: "ch_refunded_1",
      object: "charge",
      payment_intent: intent.id,
      amount: 2500,
      amount_refunded: refundedCents,
    });

    const first = await deliver("charge.refunded", charge(1000));
    await deliver("charge.refunded", charge(1000), first); // the same event again
    await deliver("charge.refunded", charge(1000)); // resent as a new event
    expect(await json(await admin.call("GET", "/billing/balance"))).toBe(15);
    await deliver("charge.refunded", charge(2500));
    await deliver("charge.refunded", charge(1000)); // an older total, late
    expect(await json(await admin.call("GET", "/billing/balance"))).toBe(0);
    const ledger = (await json(await admin.call("GET", "/billing/ledger"))) as { description: string; change: number }[];
    expect(ledger.map((r) => [r.description, r.change])).toEqual([
      ["Refund", -15],
      ["Refund", -10],
      ["Added funds", 25],
    ]);
    expect(await balanceMicros(admin.orgId)).toBe(await sumOfLedger(admin.orgId));
    const audit = await (await admin.call("GET", "/audit?action=funds.reversed")).json();
    expect(audit.entries.map((e: { newValue: unknown }) => e.newValue)).toEqual([
      { amount: -15, description: "Refund" },
      { amount: -10, description: "Refund" },
    ]);
  });

  it("takes a chargeback's funds when Stripe withdraws them and gives them back when the dispute is won", async () => {
    const admin = await h.admin();
    await addCard(admin);
    await admin.call("POST", "/billing/add-funds", { amount: 30 });
    const intent = [...fake.paymentIntents.values()].filter((p) => p.status === "succeeded").at(-1)!;
    const dispute = { id: "dp_1", object: "dispute", charge: "ch_disputed_1", payment_intent: intent.id, amount: 3000, status: "needs_response" };
    await deliver("charge.dispute.funds_withdrawn", dispute);
    await deliver("charge.dispute.funds_withdrawn", dispute);
    expect(await json(await admin.call("GET", "/billing/balance"))).toBe(0);
    await deliver("charge.dispute.funds_reinstated", { ...dispute, status: "won" });
    await deliver("charge.dispute.funds_reinstated", { ...dispute, status: "won" });
    expect(await json(await admin.call("GET", "/billing/balance"))).toBe(30);
    const ledger = (await json(await admin.call("GET", "/billing/ledger"))) as { description: string; change: number }[];
    expect(ledger.map((r) => r.description)).toEqual(["Chargeback reversed", "Chargeback", "Added funds"]);
  });

  it("ignores a refund of a payment it never credited", async () => {
    const admin = await h.admin();
    await deliver("charge.refunded", { id: "ch_elsewhere", object: "charge", payment_intent: "pi_elsewhere", amount: 500, amount_refunded: 500 });
    expect(await json(await admin.call("GET", "/billing/ledger"))).toEqual([]);
  });
});

describe("balance and ledger", () => {
  it("keeps balance equal to the sum of the ledger after 200 concurrent debits and credits", async () => {
    const admin = await h.admin();
    await addCard(admin);
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 100; i++) {
      writes.push(recordUsage(h.deps, { orgId: admin.orgId, model: "gpt", rateCardId: "rc", costMicros: 1234 + i, description: `usage ${i}` }));
      // Payments credited as their webhooks and reconciliation credit them (an organization's add-funds run one at a time).
      writes.push(
        creditPayment(h.deps, { orgId: admin.orgId, paymentIntentId: `pi_concurrent_${i}`, amountMicros: (10 + (i % 3)) * 1e6, description: "Added funds" }),
      );
    }
    await Promise.all(writes);
    const rows = await h.deps.db
      .selectFrom("ledger_entries")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("org_id", "=", admin.orgId)
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(200);
    expect(await balanceMicros(admin.orgId)).toBe(await sumOfLedger(admin.orgId));
  });

  it("charges one auto-recharge however many debits race under the threshold", async () => {
    const admin = await h.admin();
    await addCard(admin);
    await admin.call("POST", "/billing/add-funds", { amount: 15 });
    const saved = await admin.call("POST", "/billing/auto-payment-config", { enabled: true, thresholdAmount: 10, rechargeAmount: 20 });
    expect(await saved.json()).toEqual({ paymentMode: "auto", autoPaymentConfig: { thresholdAmount: 10, rechargeAmount: 20 } });
    const charges = fake.successfulCharges.length;
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        recordUsage(h.deps, { orgId: admin.orgId, model: "m", rateCardId: null, costMicros: 500_000, description: `debit ${i}` }),
      ),
    );
    await rechargesFinished(h.deps);
    expect(fake.successfulCharges.length).toBe(charges + 1);
    expect(fake.successfulCharges.at(-1)?.amount).toBe(2000);
    // 15 - 30 × 0.5 + 20
    expect(await json(await admin.call("GET", "/billing/balance"))).toBe(20);
    expect(await balanceMicros(admin.orgId)).toBe(await sumOfLedger(admin.orgId));
    const ledger = await json(await admin.call("GET", "/billing/ledger"));
    expect(ledger.filter((r: { description: string }) => r.description === "Auto-recharge")).toHaveLength(1);
  });

  it("validates the auto-payment config with SPEC's texts, and disabling clears it", async () => {
    const admin = await h.admin();
    await addCard(admin);
    const negative = await admin.call("POST", "/billing/auto-payment-config", { enabled: true, thresholdAmount: -1, rechargeAmount: 10 });
    expect(negative.status).toBe(400);
    expect((await negative.json()).error).toBe("Threshold amount must be non-negative");
    const small = await admin.call("POST", "/billing/auto-payment-config", { enabled: true, thresholdAmount: 20, rechargeAmount: 9 });
    expect(small.status).toBe(400);
    expect((await small.json()).error).toBe("Recharge amount must be at least $10");
    const off = await admin.call("POST", "/billing/auto-payment-config", { enabled: false, thresholdAmount: -5, rechargeAmount: 0 });
    expect(await off.json()).toEqual({ paymentMode: "manual", autoPaymentConfig: null });
  });
});

describe("invoice mode", () => {
  it("accrues usage as a negative balance, and refuses add funds and auto-payment with 409", async () => {
    const admin = await h.admin();
    await addCard(admin);
    await setPaymentMode(h.deps, admin.orgId, "invoice");
    await recordUsage(h.deps, { orgId: admin.orgId, model: "m", rateCardId: "rc", costMicros: 3_500_000, description: "usage" });
    expect(await json(await admin.call("GET", "/billing/balance"))).toBe(-3.5);
    expect((await json(await admin.call("GET", "/billing/config"))).paymentMode).toBe("invoice");
    const add = await admin.call("POST", "/billing/add-funds", { amount: 25 });
    expect(add.status).toBe(409);
    expect((await add.json()).error).toBeTruthy();
    const auto = await admin.call("POST", "/billing/auto-payment-config", { enabled: true, thresholdAmount: 20, rechargeAmount: 10 });
    expect(auto.status).toBe(409);
    expect((await auto.json()).error).toBeTruthy();
  });
});
