import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  AMOUNT_DECIMALS,
  AMOUNT_NOT_A_NUMBER,
  decimalsMessage,
  notANumberMessage,
  rechargeCapReason,
  RECHARGE_TOO_LARGE,
  THRESHOLD_TOO_LARGE,
} from "@contract/billing";
import { CREDIT_NOT_POSITIVE, CREDIT_TOO_LARGE, REASON_REQUIRED, REASON_TOO_LONG } from "@contract/system";
import { RECHARGE_CLAIM_MS, rechargesFinished, rechargeWaitingAccounts, recordUsage } from "../../platform/billing/charges";
import { grantCredit } from "../../platform/billing/credits";
import { earlierPaymentMessage, rechargeKey, reconcilePayments, RECONCILE_AFTER_MS, startPaymentReconciler } from "../../platform/billing/payment-intents";
import { paymentProvider } from "../../platform/providers/stripe";
import { FakeStripe, TEST_CARDS, UNREACHABLE_TWICE_CENTS } from "../fakes/stripe";
import type { Harness, Session } from "./harness";
import { createHarness } from "./harness";

const WEBHOOK_SECRET = "whsec_test_secret";
const fake = new FakeStripe({ webhookSecret: WEBHOOK_SECRET });
let stripeConfig: { secretKey: string; publishableKey: string; webhookSecret: string; host: string; port: number; protocol: "http" };
let h: Harness;
/** The platform's clock, moved by the tests that need time to pass. */
let clock = Date.now();

beforeAll(async () => {
  const at = await fake.listen();
  stripeConfig = { secretKey: "sk_test_fake", publishableKey: "pk_test_fake", webhookSecret: WEBHOOK_SECRET, host: at.host, port: at.port, protocol: "http" };
});
afterAll(() => fake.close());
afterEach(async () => {
  await h?.close();
});

async function platform() {
  clock = Date.now();
  h = await createHarness({ stripe: stripeConfig }, () => clock);
  return h;
}

async function addCard(session: Session, card: string = TEST_CARDS.ok) {
  const { clientSecret } = await (await session.call("POST", "/billing/payment-method")).json();
  const confirmed = fake.confirmSetup(clientSecret, card);
  if (!confirmed.ok) throw new Error(confirmed.error.message);
  expect((await session.call("POST", "/billing/payment-method/confirm", { setupIntentId: confirmed.setupIntent.id })).status).toBe(200);
}

async function ledgerOf(orgId: number) {
  return h.deps.db.selectFrom("ledger_entries").selectAll().where("org_id", "=", orgId).orderBy("id").execute();
}

async function balanceMicros(orgId: number): Promise<number> {
  return Number((await h.deps.db.selectFrom("billing_accounts").select("balance_micros").where("org_id", "=", orgId).executeTakeFirstOrThrow()).balance_micros);
}

async function intentsOf(orgId: number) {
  return h.deps.db.selectFrom("payment_intents").selectAll().where("org_id", "=", orgId).orderBy("id").execute();
}

/** The operator (the first user ever: system admin), an admin of Acme, and a plain member of the system organization. */
async function operatorCast() {
  const operator = await h.signIn("Operator", "operator@example.test");
  const acme = await h.admin("Acme");
  const helper = await h.signIn("Helper");
  await h.deps.db.insertInto("memberships").values({ org_id: 1, user_id: helper.userId, role: "member", created_at: clock }).execute();
  await h.deps.db.updateTable("sessions").set({ active_org_id: 1 }).where("user_id", "=", helper.userId).execute();
  return { operator, acme, helper };
}

/** A charge whose intent was recorded and which Stripe made, and then the process died before the credit. */
async function chargedThenCrashed(orgId: number, kind: "add_funds" | "auto_recharge", key: string, amountCents: number) {
  const a = await h.deps.db.selectFrom("billing_accounts").selectAll().where("org_id", "=", orgId).executeTakeFirstOrThrow();
  await h.deps.db
    .insertInto("payment_intents")
    .values({
      org_id: orgId,
      kind,
      amount_micros: amountCents * 10_000,
      idempotency_key: key,
      provider_intent_id: null,
      status: "pending",
      created_at: clock,
      updated_at: clock,
    })
    .execute();
  await paymentProvider(stripeConfig).charge({
    customerId: a.stripe_customer_id!,
    paymentMethodId: a.payment_method_id!,
    amountCents,
    idempotencyKey: key,
    orgId,
    kind,
    description: kind === "add_funds" ? "Added funds" : "Auto-recharge",
  });
}

describe("money fields are strict", () => {
  const notNumbers = ["0x10", "10", [10], true, null, { amount: 10 }];

  it("add funds takes a JSON number with at most 2 decimals, nothing coerced, and charges nothing otherwise", async () => {
    await platform();
    const admin = await h.admin();
    await addCard(admin);
    const attempts = fake.chargeAttempts.length;
    for (const amount of notNumbers) {
      const response = await admin.call("POST", "/billing/add-funds", { amount });
      expect(response.status, JSON.stringify(amount)).toBe(400);
      expect(await response.json()).toEqual({ error: `amount: ${AMOUNT_NOT_A_NUMBER}`, fields: { amount: AMOUNT_NOT_A_NUMBER } });
    }
    const cents = await admin.call("POST", "/billing/add-funds", { amount: 10.001 });
    expect(cents.status).toBe(400);
    expect(await cents.json()).toEqual({ error: `amount: ${AMOUNT_DECIMALS}`, fields: { amount: AMOUNT_DECIMALS } });
    expect(fake.chargeAttempts.length).toBe(attempts);
    expect((await admin.call("POST", "/billing/add-funds", { amount: 10.01 })).status).toBe(200);
    expect(await balanceMicros(admin.orgId)).toBe(10_010_000);
  });

  it("auto-payment amounts are held to the same rule, enabled or not", async () => {
    await platform();
    const admin = await h.admin();
    await addCard(admin);
    for (const enabled of [true, false]) {
      const text = await admin.call("POST", "/billing/auto-payment-config", { enabled, thresholdAmount: "0x10", rechargeAmount: 10 });
      expect(text.status).toBe(400);
      expect((await text.json()).fields).toEqual({ thresholdAmount: notANumberMessage("Threshold amount") });
      const flag = await admin.call("POST", "/billing/auto-payment-config", { enabled, thresholdAmount: 20, rechargeAmount: true });
      expect((await flag.json()).fields).toEqual({ rechargeAmount: notANumberMessage("Recharge amount") });
      const fine = await admin.call("POST", "/billing/auto-payment-config", { enabled, thresholdAmount: 20.005, rechargeAmount: 10 });
      expect(fine.status).toBe(400);
      expect((await fine.json()).fields).toEqual({ thresholdAmount: decimalsMessage("Threshold amount") });
    }
    // Far too large: said so, not "at most 2 decimals" (amount * 100 overflowed to Infinity).
    const huge = await admin.call("POST", "/billing/auto-payment-config", { enabled: true, thresholdAmount: 1e308, rechargeAmount: 1e307 });
    expect((await huge.json()).fields).toEqual({ thresholdAmount: THRESHOLD_TOO_LARGE, rechargeAmount: RECHARGE_TOO_LARGE });
    expect((await admin.call("POST", "/billing/auto-payment-config", { enabled: true, thresholdAmount: 20.5, rechargeAmount: 10.25 })).status).toBe(200);
  });
});

describe("credits granted by the operator", () => {
  it("writes 'Credit: reason' to the ledger and raises the balance, in the organization editor's call", async () => {
    await platform();
    const { operator, acme } = await operatorCast();
    const response = await operator.call("POST", `/system/organizations/${acme.orgId}/credits`, { amount: 12.5, reason: "  Welcome trial " });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: acme.orgId, name: "Acme", balance: 12.5 });
    expect(await (await acme.call("GET", "/billing/balance")).json()).toBe(12.5);
    const [row] = await (await acme.call("GET", "/billing/ledger")).json();
    expect(row).toMatchObject({ description: "Credit: Welcome trial", change: 12.5, model: null, rateCardId: null });
    const ledger = await ledgerOf(acme.orgId);
    expect(ledger.reduce((sum, r) => sum + Number(r.change_micros), 0)).toBe(await balanceMicros(acme.orgId));
  });

  it("is for the system organization's admins only, and an unknown organization is not found", async () => {
    await platform();
    const { operator, acme, helper } = await operatorCast();
    const body = { amount: 10, reason: "Support" };
    expect((await acme.call("POST", `/system/organizations/${acme.orgId}/credits`, body)).status).toBe(403);
    expect((await helper.call("POST", `/system/organizations/${acme.orgId}/credits`, body)).status).toBe(403);
    expect((await h.fetch(`/system/organizations/${acme.orgId}/credits`, { method: "POST", json: body })).status).toBe(401);
    expect((await operator.call("POST", "/system/organizations/999999/credits", body)).status).toBe(404);
    expect((await operator.call("POST", "/system/organizations/abc/credits", body)).status).toBe(404);
    expect(await ledgerOf(acme.orgId)).toEqual([]);
  });

  it("refuses amounts and reasons outside the rules, naming the field", async () => {
    await platform();
    const { operator, acme } = await operatorCast();
    const cases: [unknown, unknown, string, string][] = [
      [0, "x", "amount", CREDIT_NOT_POSITIVE],
      [-5, "x", "amount", CREDIT_NOT_POSITIVE],
      [10_000.01, "x", "amount", CREDIT_TOO_LARGE],
      [1.234, "x", "amount", AMOUNT_DECIMALS],
      ["10", "x", "amount", AMOUNT_NOT_A_NUMBER],
      [[10], "x", "amount", AMOUNT_NOT_A_NUMBER],
      [true, "x", "amount", AMOUNT_NOT_A_NUMBER],
      [10, "   ", "reason", REASON_REQUIRED],
      [10, undefined, "reason", REASON_REQUIRED],
      [10, "x".repeat(201), "reason", REASON_TOO_LONG],
    ];
    for (const [amount, reason, field, message] of cases) {
      const response = await operator.call("POST", `/system/organizations/${acme.orgId}/credits`, { amount, reason });
      expect(response.status, `${JSON.stringify(amount)} ${JSON.stringify(reason)}`).toBe(400);
      expect((await response.json()).fields).toEqual({ [field]: message });
    }
    expect((await operator.call("POST", `/system/organizations/${acme.orgId}/credits`, { amount: 10_000, reason: "x".repeat(200) })).status).toBe(200);
    expect(await ledgerOf(acme.orgId)).toHaveLength(1);
  });

  it("is the same function the CLI calls, with the same rules", async () => {
    await platform();
    const acme = await h.admin("Acme");
    await grantCredit(h.deps, acme.orgId, 5, "Trial");
    await expect(grantCredit(h.deps, acme.orgId, 5.001, "Trial")).rejects.toMatchObject({ status: 400, message: `amount: ${AMOUNT_DECIMALS}` });
    await expect(grantCredit(h.deps, 999_999, 5, "Trial")).rejects.toMatchObject({ status: 404 });
    expect(await balanceMicros(acme.orgId)).toBe(5_000_000);
  });
});

describe("charges never lost after a crash", () => {
  it("records the intent before charging and marks it credited with the ledger row", async () => {
    await platform();
    const admin = await h.admin();
    await addCard(admin);
    await admin.call("POST", "/billing/add-funds", { amount: 25, idempotencyKey: "nonce-abcdefgh" });
    const [intent] = await intentsOf(admin.orgId);
    expect(intent).toMatchObject({
      kind: "add_funds",
      amount_micros: 25_000_000,
      status: "credited",
      idempotency_key: `add-funds:${admin.orgId}:nonce-abcdefgh`,
    });
    const [row] = await ledgerOf(admin.orgId);
    expect(row.payment_intent_id).toBe(intent.provider_intent_id);
  });

  it("credits, exactly once, a charge the provider took while the process died before the credit", async () => {
    await platform();
    const admin = await h.admin();
    await addCard(admin);
    // The request recorded its intent and Stripe charged the card; then the process was killed.
    await chargedThenCrashed(admin.orgId, "add_funds", `add-funds:${admin.orgId}:crashed`, 4000);
    const charges = fake.successfulCharges.length;

    // Too fresh to touch: it may still be in flight in its own request.
    expect(await reconcilePayments(h.deps)).toEqual({ credited: 0 });
    expect(await ledgerOf(admin.orgId)).toEqual([]);

    clock += RECONCILE_AFTER_MS + 1;
    expect(await reconcilePayments(h.deps)).toEqual({ credited: 1 });
    expect(await reconcilePayments(h.deps)).toEqual({ credited: 0 });
    const ledger = await ledgerOf(admin.orgId);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ description: "Added funds", change_micros: 40_000_000 });
    expect(await balanceMicros(admin.orgId)).toBe(40_000_000);
    expect((await intentsOf(admin.orgId))[0].status).toBe("credited");
    // The replay was answered from the idempotency key: no second charge.
    expect(fake.successfulCharges.length).toBe(charges);
  });

  it("releases the claim of an automatic recharge it credits after a crash, so the next dip recharges", async () => {
    await platform();
    const admin = await h.admin();
    await addCard(admin);
    // Above the threshold as it is saved: saving it under the threshold would recharge at once.
    await admin.call("POST", "/billing/add-funds", { amount: 15 });
    await admin.call("POST", "/billing/auto-payment-config", { enabled: true, thresholdAmount: 10, rechargeAmount: 20 });
    await rechargesFinished(h.deps);
    // The recharge claimed, recorded its intent, and Stripe charged the card; then the process was killed.
    const claimedAt = clock;
    await h.deps.db.updateTable("billing_accounts").set({ recharge_claimed_at: claimedAt }).where("org_id", "=", admin.orgId).execute();
    await chargedThenCrashed(admin.orgId, "auto_recharge", rechargeKey(admin.orgId, claimedAt), 2000);
    clock += RECONCILE_AFTER_MS + 1;
    expect(await reconcilePayments(h.deps)).toEqual({ credited: 1 });
    const after = await h.deps.db.selectFrom("billing_accounts").select("recharge_claimed_at").where("org_id", "=", admin.orgId).executeTakeFirstOrThrow();
    expect(after.recharge_claimed_at).toBeNull();
    // A debit that takes the balance under the threshold recharges at once, not after the claim expires.
    const recharges = fake.successfulCharges.length;
    clock += 1000;
    await recordUsage(h.deps, { orgId: admin.orgId, model: "m", rateCardId: null, costMicros: 30_000_000, description: "use" });
    await rechargesFinished(h.deps);
    expect(fake.successfulCharges.length).toBe(recharges + 1);
  });

  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))("finishes a charge whose credit failed after the provider succeeded (SQLite)", async () => {
    await platform();
    const admin = await h.admin();
    await addCard(admin);
    const { sql } = await import("kysely");
    // The credit's transaction dies: as a kill -9 right after the provider answered.
    await sql`create trigger crash before insert on ledger_entries begin select raise(abort, 'crash'); end`.execute(h.deps.db);
    const response = await admin.call("POST", "/billing/add-funds", { amount: 30 });
    expect(response.status).toBe(500);
    await sql`drop trigger crash`.execute(h.deps.db);
    expect(await balanceMicros(admin.orgId)).toBe(0);
    expect((await intentsOf(admin.orgId))[0]).toMatchObject({ status: "succeeded" });

    clock += RECONCILE_AFTER_MS + 1;
    await reconcilePayments(h.deps);
    await reconcilePayments(h.deps);
    expect(await ledgerOf(admin.orgId)).toHaveLength(1);
    expect(await balanceMicros(admin.orgId)).toBe(30_000_000);
    expect((await intentsOf(admin.orgId))[0].status).toBe("credited");
  });

  it("marks failed a pending charge the card declines on replay, crediting nothing", async () => {
    await platform();
    const admin = await h.admin();
    await addCard(admin, TEST_CARDS.declinesCharges);
    await h.deps.db
      .insertInto("payment_intents")
      .values({
        org_id: admin.orgId,
        kind: "add_funds",
        amount_micros: 10_000_000,
        idempotency_key: "k-declined",
        provider_intent_id: null,
        status: "pending",
        created_at: clock,
        updated_at: clock,
      })
      .execute();
    clock += RECONCILE_AFTER_MS + 1;
    expect(await reconcilePayments(h.deps)).toEqual({ credited: 0 });
    expect((await intentsOf(admin.orgId))[0].status).toBe("failed");
    expect(await ledgerOf(admin.orgId)).toEqual([]);
  });

  it("runs at start and stops when told", async () => {
    await platform();
    const admin = await h.admin();
    await addCard(admin);
    const a = await h.deps.db.selectFrom("billing_accounts").selectAll().where("org_id", "=", admin.orgId).executeTakeFirstOrThrow();
    await paymentProvider(stripeConfig).charge({
      customerId: a.stripe_customer_id!,
      paymentMethodId: a.payment_method_id!,
      amountCents: 1000,
      idempotencyKey: "k-start",
      orgId: admin.orgId,
      kind: "add_funds",
      description: "Added funds",
    });
    await h.deps.db
      .insertInto("payment_intents")
      .values({
        org_id: admin.orgId,
        kind: "add_funds",
        amount_micros: 10_000_000,
        idempotency_key: "k-start",
        provider_intent_id: null,
        status: "pending",
        created_at: clock - 2 * RECONCILE_AFTER_MS,
        updated_at: clock - 2 * RECONCILE_AFTER_MS,
      })
      .execute();
    const reconciler = startPaymentReconciler(h.deps, 3_600_000);
    await reconciler.stop();
    expect(await balanceMicros(admin.orgId)).toBe(10_000_000);
  });
});

describe("an automatic recharge", () => {
  it("is started by the debit that needs it, which does not wait for the card's provider", async () => {
    await platform();
    const admin = await h.admin();
    await addCard(admin);
    await admin.call("POST", "/billing/add-funds", { amount: 15 });
    await admin.call("POST", "/billing/auto-payment-config", { enabled: true, thresholdAmount: 10, rechargeAmount: 20 });
    const release = fake.holdCharges();
    try {
      // The debit (an answer's metering) is written and done while the provider has not answered yet.
      await recordUsage(h.deps, { orgId: admin.orgId, model: "m", rateCardId: null, costMicros: 10_000_000, description: "use" });
      expect(await balanceMicros(admin.orgId)).toBe(5_000_000);
      expect((await ledgerOf(admin.orgId)).filter((r) => r.description === "Auto-recharge")).toHaveLength(0);
    } finally {
      release();
    }
    await rechargesFinished(h.deps);
    expect(await balanceMicros(admin.orgId)).toBe(25_000_000);
    expect((await ledgerOf(admin.orgId)).filter((r) => r.description === "Auto-recharge")).toHaveLength(1);
  });
});

describe("adding funds while an earlier charge's outcome is unknown", () => {
  it("refuses a new charge (another key: a reopened dialog) until the earlier one is confirmed; the same key goes on", async () => {
    await platform();
    const admin = await h.admin();
    await addCard(admin);
    const add = (amount: number, key: string) => admin.call("POST", "/billing/add-funds", { amount, idempotencyKey: `nonce-${key}` });
    // The connection drops on this charge and on the client's retry: its outcome is unknown.
    expect((await add(UNREACHABLE_TWICE_CENTS / 100, "first")).status).toBe(502);

    const other = await add(10, "second");
    expect(other.status).toBe(409);
    expect((await other.json()).error).toBe(earlierPaymentMessage(UNREACHABLE_TWICE_CENTS * 10_000));
    expect(earlierPaymentMessage(UNREACHABLE_TWICE_CENTS * 10_000)).toBe(
      "An earlier payment of $13.13 is still being confirmed with the payment provider, so nothing was charged now. Check the balance in a few minutes before adding funds again.",
    );
    // The same key with another amount (changed in the dialog) is refused alike: the provider would refuse the key.
    const changed = await add(20, "first");
    expect(changed.status).toBe(409);
    expect((await changed.json()).error).toBe(earlierPaymentMessage(UNREACHABLE_TWICE_CENTS * 10_000));
    expect((await intentsOf(admin.orgId)).map((i) => Number(i.amount_micros))).toEqual([UNREACHABLE_TWICE_CENTS * 10_000]);

    // The same key is the same charge: it goes through, once; then a new one may be made.
    expect((await add(UNREACHABLE_TWICE_CENTS / 100, "first")).status).toBe(200);
    expect((await add(10, "second")).status).toBe(200);
    expect(await balanceMicros(admin.orgId)).toBe(UNREACHABLE_TWICE_CENTS * 10_000 + 10_000_000);
    expect((await ledgerOf(admin.orgId)).map((r) => r.description)).toEqual(["Added funds", "Added funds"]);
  });
});

describe("a payment reconciliation credits", () => {
  const fundsAdded = (orgId: number) =>
    h.deps.db.selectFrom("audit_log").select(["actor_id", "actor_name", "address"]).where("org_id", "=", orgId).where("action", "=", "funds.added").execute();

  it("is audited as the person who asked, with no address, as the request's own credit would have been", async () => {
    await platform();
    const admin = await h.admin();
    await addCard(admin);
    // The connection drops on this charge and on the client's retry; the person goes away.
    expect((await admin.call("POST", "/billing/add-funds", { amount: UNREACHABLE_TWICE_CENTS / 100, idempotencyKey: "nonce-lost" })).status).toBe(502);
    clock += RECONCILE_AFTER_MS + 1;
    expect(await reconcilePayments(h.deps)).toEqual({ credited: 1 });
    const { name } = await h.deps.db.selectFrom("users").select("name").where("id", "=", admin.userId).executeTakeFirstOrThrow();
    expect(await fundsAdded(admin.orgId)).toEqual([{ actor_id: admin.userId, actor_name: name, address: null }]);
  });

  it("is the platform's when it was an automatic recharge, which nobody asked for then", async () => {
    await platform();
    const admin = await h.admin();
    await addCard(admin);
    await admin.call("POST", "/billing/auto-payment-config", { enabled: true, thresholdAmount: 5, rechargeAmount: UNREACHABLE_TWICE_CENTS / 100 });
    await rechargesFinished(h.deps);
    clock += RECONCILE_AFTER_MS + 1;
    expect(await reconcilePayments(h.deps)).toEqual({ credited: 1 });
    expect(await fundsAdded(admin.orgId)).toEqual([{ actor_id: null, actor_name: null, address: null }]);
  });
});

describe("an automatic recharge the card declines", () => {
  it("is said by the recharge status, as soon as saving the settings answers, until a payment succeeds", async () => {
    await platform();
    const admin = await h.admin();
    await addCard(admin, TEST_CARDS.declinesCharges);
    const status = async () => (await (await admin.call("GET", "/billing/recharges")).json()) as { paused: unknown; declined?: unknown };
    expect((await status()).declined).toBeNull();
    // At $0, under the threshold: saving charges the card now, and the answer waits for it.
    const saved = await admin.call("POST", "/billing/auto-payment-config", { enabled: true, thresholdAmount: 20, rechargeAmount: 10 });
    expect(saved.status).toBe(200);
    expect(await status()).toMatchObject({ paused: null, declined: { amount: 10, at: expect.any(String) } });

    // A card that works, and funds added with it: the decline is behind.
    await addCard(admin, TEST_CARDS.ok);
    expect((await admin.call("POST", "/billing/add-funds", { amount: 25, idempotencyKey: "nonce-after-decline" })).status).toBe(200);
    expect((await status()).declined).toBeNull();
  });
});

describe("an automatic recharge whose outcome is unknown", () => {
  it("is not charged again under a new key while the provider is away, however long; reconciliation credits it once", async () => {
    await platform();
    const admin = await h.admin();
    await addCard(admin);
    const charged = () => fake.successfulCharges.filter((c) => c.amount === UNREACHABLE_TWICE_CENTS).length;
    const before = charged();
    // Saving under the threshold recharges at once; the connection drops on that charge and on the client's retry.
    await admin.call("POST", "/billing/auto-payment-config", { enabled: true, thresholdAmount: 5, rechargeAmount: UNREACHABLE_TWICE_CENTS / 100 });
    await rechargesFinished(h.deps);
    expect((await intentsOf(admin.orgId)).map((i) => i.status)).toEqual(["pending"]);

    // The claim expires while the outcome is still unknown: the reconciler's pass starts no second charge.
    clock += RECHARGE_CLAIM_MS + 1;
    expect(await rechargeWaitingAccounts(h.deps)).toEqual({ recharged: 0 });
    await recordUsage(h.deps, { orgId: admin.orgId, model: "m", rateCardId: null, costMicros: 0, description: "a debit" });
    await rechargesFinished(h.deps);
    expect(await intentsOf(admin.orgId)).toHaveLength(1);

    // The provider is back: the first charge is asked again with its key and credited, once.
    expect(await reconcilePayments(h.deps)).toEqual({ credited: 1 });
    expect(await balanceMicros(admin.orgId)).toBe(UNREACHABLE_TWICE_CENTS * 10_000);
    expect(charged() - before).toBe(1);
    expect((await ledgerOf(admin.orgId)).filter((r) => r.description === "Auto-recharge")).toHaveLength(1);
  });
});

describe("the daily recharge limit", () => {
  it("refuses the 4th automatic recharge within 24 hours, records it for /billing, and a charge clears it", async () => {
    await platform();
    const admin = await h.admin();
    await addCard(admin);
    await admin.call("POST", "/billing/add-funds", { amount: 15 });
    await admin.call("POST", "/billing/auto-payment-config", { enabled: true, thresholdAmount: 10, rechargeAmount: 10 });
    expect(await (await admin.call("GET", "/billing/recharges")).json()).toEqual({ rechargesPerDay: 3, paused: null, declined: null });
    const recharges = () => fake.successfulCharges.filter((c) => c.idempotencyKey?.includes("auto-recharge")).length;
    const before = recharges();
    // Each debit of $10 takes the balance of $15 to $5, under the threshold, so each would recharge.
    for (let i = 0; i < 4; i++) {
      clock += 1000;
      await recordUsage(h.deps, { orgId: admin.orgId, model: "m", rateCardId: null, costMicros: 10_000_000, description: `use ${i}` });
      await rechargesFinished(h.deps);
    }
    expect(recharges() - before).toBe(3);
    const status = await (await admin.call("GET", "/billing/recharges")).json();
    expect(status.paused).toEqual({ at: new Date(clock).toISOString(), reason: rechargeCapReason(3) });
    expect(rechargeCapReason(3)).toBe("3 recharges today, the daily limit");

    // More debits while paused charge nothing more.
    clock += 1000;
    await recordUsage(h.deps, { orgId: admin.orgId, model: "m", rateCardId: null, costMicros: 1_000_000, description: "more" });
    await rechargesFinished(h.deps);
    expect(recharges() - before).toBe(3);

    expect((await admin.call("POST", "/billing/add-funds", { amount: 10 })).status).toBe(200);
    expect((await (await admin.call("GET", "/billing/recharges")).json()).paused).toBeNull();
    expect(await balanceMicros(admin.orgId)).toBe(Number((await ledgerOf(admin.orgId)).reduce((s, r) => s + Number(r.change_micros), 0)));
  });

  it("counts only the last 24 hours", async () => {
    await platform();
    const admin = await h.admin();
    await addCard(admin);
    await admin.call("POST", "/billing/add-funds", { amount: 15 });
    await admin.call("POST", "/billing/auto-payment-config", { enabled: true, thresholdAmount: 10, rechargeAmount: 10 });
    await h.deps.db.updateTable("billing_accounts").set({ recharges_per_day: 1 }).where("org_id", "=", admin.orgId).execute();
    await recordUsage(h.deps, { orgId: admin.orgId, model: "m", rateCardId: null, costMicros: 10_000_000, description: "one" });
    await rechargesFinished(h.deps);
    await recordUsage(h.deps, { orgId: admin.orgId, model: "m", rateCardId: null, costMicros: 10_000_000, description: "two" });
    await rechargesFinished(h.deps);
    expect((await (await admin.call("GET", "/billing/recharges")).json()).paused?.reason).toBe("1 recharge today, the daily limit");
    clock += 24 * 60 * 60_000 + 1;
    await recordUsage(h.deps, { orgId: admin.orgId, model: "m", rateCardId: null, costMicros: 1_000_000, description: "a day later" });
    await rechargesFinished(h.deps);
    expect((await ledgerOf(admin.orgId)).filter((r) => r.description === "Auto-recharge")).toHaveLength(2);
    expect((await (await admin.call("GET", "/billing/recharges")).json()).paused).toBeNull();
  });
});
