import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { declinedRechargesReason, RECHARGE_CLAIM_MS, rechargesFinished, rechargeWaitingAccounts, recordUsage } from "../../platform/billing/charges";
import { saveModel } from "../../platform/models/service";
import { reserve } from "../../platform/spend/reservations";
import type { FakeUpstream } from "../fakes/openai-upstream";
import { startFakeUpstream } from "../fakes/openai-upstream";
import { FakeStripe, TEST_CARDS } from "../fakes/stripe";
import type { Harness, Session } from "./harness";
import { createHarness } from "./harness";

/*
 * Automatic recharge when nothing can be admitted (audit O, O1): a debit used to be its only trigger, so
 * an auto-mode organization that could not afford a request was refused forever and never recharged.
 */
const WEBHOOK_SECRET = "whsec_test_secret";
const stripe = new FakeStripe({ webhookSecret: WEBHOOK_SECRET });
let stripeConfig: { secretKey: string; publishableKey: string; webhookSecret: string; host: string; port: number; protocol: "http" };
let upstream: FakeUpstream;
let h: Harness;
let clock = Date.now();

beforeAll(async () => {
  const at = await stripe.listen();
  stripeConfig = { secretKey: "sk_test_fake", publishableKey: "pk_test_fake", webhookSecret: WEBHOOK_SECRET, host: at.host, port: at.port, protocol: "http" };
  upstream = await startFakeUpstream();
});
afterAll(async () => {
  await stripe.close();
  await upstream.close();
});
afterEach(async () => {
  await h?.close();
});

async function addCard(session: Session, card: string = TEST_CARDS.ok) {
  const { clientSecret } = await (await session.call("POST", "/billing/payment-method")).json();
  const confirmed = stripe.confirmSetup(clientSecret, card);
  if (!confirmed.ok) throw new Error(confirmed.error.message);
  expect((await session.call("POST", "/billing/payment-method/confirm", { setupIntentId: confirmed.setupIntent.id })).status).toBe(200);
}

/** A platform with two priced models ($100 and $1,000 per million output tokens, 32k context) and an admin with a card. */
async function platform(card: string = TEST_CARDS.ok) {
  clock = Date.now();
  h = await createHarness({ stripe: stripeConfig }, () => clock);
  for (const [name, outputPerMillion] of [
    ["fake-echo", 100],
    ["fake-pricey", 1000],
  ] as const) {
    await saveModel(h.deps, {
      name,
      displayName: name,
      provider: "vllm",
      contextSize: 32768,
      baseUrl: upstream.url,
      upstreamModel: "echo",
      rateCard: { id: `rc-${name}`, inputPerMillion: 1, outputPerMillion },
    });
  }
  const admin = await h.admin();
  await addCard(admin, card);
  return admin;
}

/** Auto mode as an organization configured it before this fix: nothing has recharged it since. */
async function alreadyInAutoMode(orgId: number, thresholdMicros: number, rechargeMicros: number) {
  await h.deps.db
    .updateTable("billing_accounts")
    .set({ payment_mode: "auto", auto_enabled: 1, auto_threshold_micros: thresholdMicros, auto_recharge_micros: rechargeMicros })
    .where("org_id", "=", orgId)
    .execute();
}

const chat = (admin: Session, extra: object = {}) =>
  admin.call("POST", "/chat/completions", { model: "fake-echo", messages: [{ role: "user", content: "hi" }], stream: false, ...extra });
const balanceMicros = async (orgId: number) =>
  Number((await h.deps.db.selectFrom("billing_accounts").select("balance_micros").where("org_id", "=", orgId).executeTakeFirstOrThrow()).balance_micros);
const autoRecharges = () => stripe.chargeAttempts.filter((c) => c.idempotencyKey?.includes("auto-recharge:"));
const started =
  /^Insufficient balance: this request may cost up to \$[\d.]+, \$[\d.]+ is available\. An automatic recharge of \$(\d+\.\d\d) has started: try again in a moment\.$/;

describe("an automatic recharge when the organization can't be admitted", () => {
  it("is charged when auto-recharge is turned on at $0, and the next request is admitted (R1)", async () => {
    const admin = await platform();
    const before = autoRecharges().length;
    const saved = await admin.call("POST", "/billing/auto-payment-config", { enabled: true, thresholdAmount: 20, rechargeAmount: 10 });
    expect(saved.status).toBe(200);
    await rechargesFinished(h.deps);
    expect(autoRecharges().length - before).toBe(1);
    expect(await balanceMicros(admin.orgId)).toBe(10_000_000);
    expect((await chat(admin, { max_tokens: 10 })).status).toBe(200);
  });

  it("is started by a request refused for balance, which answers 402 without waiting for the card's provider; concurrent refusals start one charge (R1)", async () => {
    const admin = await platform();
    await alreadyInAutoMode(admin.orgId, 20_000_000, 10_000_000);
    const before = autoRecharges().length;
    const release = stripe.holdCharges();
    let refusals: { status: number; body: { error: { message: string; code: string } } }[];
    try {
      // Answered while the provider has not answered the charge.
      refusals = await Promise.all(
        Array.from({ length: 8 }, async () => {
          const r = await chat(admin, { max_tokens: 10 });
          return { status: r.status, body: await r.json() };
        }),
      );
      expect(await balanceMicros(admin.orgId)).toBe(0);
    } finally {
      release();
    }
    expect(refusals.map((r) => r.status)).toEqual(Array(8).fill(402));
    // One of them started the recharge and says so; the others found it under way.
    const messages = refusals.map((r) => r.body.error.message);
    expect(messages.filter((m) => started.test(m))).toHaveLength(1);
    expect(messages.find((m) => started.test(m))).toMatch(/may cost up to \$0\.0010\d+, \$0\.00 is available\. An automatic recharge of \$10\.00 has started/);
    // Not "Add funds" (decision 0138): that invited a second, unneeded charge by hand.
    expect(
      messages.filter((m) => !started.test(m)).every((m) => m.endsWith("is available. An automatic recharge of $10.00 is under way: try again in a moment.")),
    ).toBe(true);
    expect(refusals[0].body.error.code).toBe("insufficient_quota");
    await rechargesFinished(h.deps);
    expect(autoRecharges().length - before).toBe(1);
    expect(await balanceMicros(admin.orgId)).toBe(10_000_000);
    expect((await chat(admin, { max_tokens: 10 })).status).toBe(200);
  });

  it("is started when the balance is above the threshold but one recharge would admit the refused request (R2b)", async () => {
    const admin = await platform();
    await admin.call("POST", "/billing/add-funds", { amount: 10 });
    await admin.call("POST", "/billing/auto-payment-config", { enabled: true, thresholdAmount: 5, rechargeAmount: 50 });
    await rechargesFinished(h.deps);
    const before = autoRecharges().length;
    // No max_tokens on a $1,000-per-million model: the hold is the context's, about $32.77.
    const refused = await chat(admin, { model: "fake-pricey" });
    expect(refused.status).toBe(402);
    expect((await refused.json()).error.message).toMatch(
      /^Insufficient balance: this request may cost up to \$32\.7\d+, \$10\.00 is available\. An automatic recharge of \$50\.00 has started: try again in a moment\.$/,
    );
    await rechargesFinished(h.deps);
    expect(autoRecharges().length - before).toBe(1);
    expect(await balanceMicros(admin.orgId)).toBe(60_000_000);
    expect((await chat(admin, { model: "fake-pricey" })).status).toBe(200);
  });

  it("is not charged for a request one recharge could not admit while the balance is above the threshold", async () => {
    const admin = await platform();
    await admin.call("POST", "/billing/add-funds", { amount: 10 });
    await admin.call("POST", "/billing/auto-payment-config", { enabled: true, thresholdAmount: 5, rechargeAmount: 10 });
    await rechargesFinished(h.deps);
    const before = autoRecharges().length;
    const refused = await chat(admin, { model: "fake-pricey" });
    expect(refused.status).toBe(402);
    expect((await refused.json()).error.message).toMatch(/is available\. Add funds to use this model\.$/);
    await rechargesFinished(h.deps);
    expect(autoRecharges().length - before).toBe(0);
  });

  it("works with a threshold of $0: a few micro-dollars left that admit nothing, or nothing left at all (R3)", async () => {
    const admin = await platform();
    await admin.call("POST", "/billing/add-funds", { amount: 10 });
    await admin.call("POST", "/billing/auto-payment-config", { enabled: true, thresholdAmount: 0, rechargeAmount: 10 });
    await rechargesFinished(h.deps);
    const before = autoRecharges().length;
    // Usage leaves $0.0005: above $0, so no recharge yet, but no request fits.
    await recordUsage(h.deps, { orgId: admin.orgId, model: "fake-echo", rateCardId: null, costMicros: 9_999_500, description: "usage" });
    await rechargesFinished(h.deps);
    expect(autoRecharges().length - before).toBe(0);
    const refused = await chat(admin, { max_tokens: 10 });
    expect(refused.status).toBe(402);
    expect((await refused.json()).error.message).toMatch(started);
    await rechargesFinished(h.deps);
    expect(autoRecharges().length - before).toBe(1);
    expect((await chat(admin, { max_tokens: 10 })).status).toBe(200);
    // A debit that takes it to exactly $0 recharges at once: $0 is "under" a threshold of $0.
    clock += 1000;
    await recordUsage(h.deps, {
      orgId: admin.orgId,
      model: "fake-echo",
      rateCardId: null,
      costMicros: await balanceMicros(admin.orgId),
      description: "the rest",
    });
    await rechargesFinished(h.deps);
    expect(autoRecharges().length - before).toBe(2);
    expect(await balanceMicros(admin.orgId)).toBe(10_000_000);
  });

  it("compares the threshold with what can be spent: the balance less what running requests hold", async () => {
    const admin = await platform();
    await admin.call("POST", "/billing/add-funds", { amount: 30 });
    await admin.call("POST", "/billing/auto-payment-config", { enabled: true, thresholdAmount: 20, rechargeAmount: 10 });
    await rechargesFinished(h.deps);
    const before = autoRecharges().length;
    await reserve(h.deps, { orgId: admin.orgId, tokenId: null, receiptId: "rcpt_running", amountMicros: 15_000_000 });
    // $29 of balance, $14 of it free to spend: under $20.
    await recordUsage(h.deps, { orgId: admin.orgId, model: "fake-echo", rateCardId: null, costMicros: 1_000_000, description: "usage" });
    await rechargesFinished(h.deps);
    expect(autoRecharges().length - before).toBe(1);
    expect(await balanceMicros(admin.orgId)).toBe(39_000_000);
  });
});

describe("the reconciler's pass for automatic recharges", () => {
  it("recharges an auto-mode organization under its threshold that nothing else would, once", async () => {
    const admin = await platform();
    await alreadyInAutoMode(admin.orgId, 20_000_000, 10_000_000);
    const before = autoRecharges().length;
    expect(await rechargeWaitingAccounts(h.deps)).toEqual({ recharged: 1 });
    expect(await balanceMicros(admin.orgId)).toBe(10_000_000);
    // Still under $20: the next pass recharges again, as the next debit would.
    clock += 1000;
    expect(await rechargeWaitingAccounts(h.deps)).toEqual({ recharged: 1 });
    expect(await rechargeWaitingAccounts(h.deps)).toEqual({ recharged: 0 });
    expect(autoRecharges().length - before).toBe(2);
    expect(await balanceMicros(admin.orgId)).toBe(20_000_000);
  });

  it("tries a declined card at most the daily limit a day, whatever refusals and passes come, and says why it paused", async () => {
    const admin = await platform(TEST_CARDS.declinesCharges);
    await alreadyInAutoMode(admin.orgId, 20_000_000, 10_000_000);
    const before = autoRecharges().length;
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      // Two hours of refused requests and reconciler passes, a minute apart.
      for (let minute = 0; minute < 120; minute++) {
        clock += 60_000;
        const r = await chat(admin, { max_tokens: 10 });
        expect(r.status).toBe(402);
        await r.text();
        await rechargesFinished(h.deps);
        await rechargeWaitingAccounts(h.deps);
      }
    } finally {
      errors.mockRestore();
    }
    const tried = autoRecharges().slice(before);
    expect(tried).toHaveLength(3);
    expect(tried.every((c) => !c.succeeded)).toBe(true);
    // Tried no more often than the claim's expiry allows.
    const intents = await h.deps.db.selectFrom("payment_intents").select(["created_at", "status"]).where("org_id", "=", admin.orgId).orderBy("id").execute();
    expect(intents.map((i) => i.status)).toEqual(["failed", "failed", "failed"]);
    expect(Number(intents[1].created_at) - Number(intents[0].created_at)).toBeGreaterThanOrEqual(RECHARGE_CLAIM_MS);
    const status = await (await admin.call("GET", "/billing/recharges")).json();
    expect(status.paused.reason).toBe(declinedRechargesReason(3, 3));
    expect(declinedRechargesReason(3, 3)).toBe("3 recharges tried today (3 declined by the card), the daily limit");
    expect(await balanceMicros(admin.orgId)).toBe(0);

    // A card that works, and funds added with it: the declines no longer count, and the next pass recharges.
    clock += 60_000;
    await addCard(admin);
    expect((await admin.call("POST", "/billing/add-funds", { amount: 10 })).status).toBe(200);
    expect((await (await admin.call("GET", "/billing/recharges")).json()).paused).toBeNull();
    clock += 60_000;
    expect(await rechargeWaitingAccounts(h.deps)).toEqual({ recharged: 1 });
    expect(await balanceMicros(admin.orgId)).toBe(20_000_000);
  });

  it("does not double a recharge under way when the configuration is saved again", async () => {
    const admin = await platform();
    await alreadyInAutoMode(admin.orgId, 20_000_000, 10_000_000);
    const before = autoRecharges().length;
    const release = stripe.holdCharges();
    try {
      const refused = await chat(admin, { max_tokens: 10 });
      expect((await refused.json()).error.message).toMatch(started);
      const saved = await admin.call("POST", "/billing/auto-payment-config", { enabled: true, thresholdAmount: 20, rechargeAmount: 10 });
      expect(saved.status).toBe(200);
    } finally {
      release();
    }
    await rechargesFinished(h.deps);
    expect(autoRecharges().length - before).toBe(1);
    expect(await balanceMicros(admin.orgId)).toBe(10_000_000);
  });
});
