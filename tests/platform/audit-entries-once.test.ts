import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AuditEntry } from "@contract/audit";
import { NO_PAYMENT_METHOD } from "@contract/billing";
import { rechargesFinished } from "../../platform/billing/charges";
import { saveModel } from "../../platform/models/service";
import type { FakeUpstream } from "../fakes/openai-upstream";
import { startFakeUpstream } from "../fakes/openai-upstream";
import { FakeStripe, TEST_CARDS } from "../fakes/stripe";
import type { Harness, Session } from "./harness";
import { createHarness } from "./harness";

/*
 * The audit log lists changes, each once, and says where a person was only when a person acted
 * (decisions 0089, 0128, 0138, 0139): concurrent saves and removals, automatic entries written while
 * some request was being served, and codes that can no longer be used.
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

const MEMBERS_ADDRESS = "203.0.113.9";

async function platform() {
  clock = Date.now();
  h = await createHarness({ stripe: stripeConfig }, () => clock);
  return h.team();
}

async function addCard(session: Session) {
  const { clientSecret } = await (await session.call("POST", "/billing/payment-method")).json();
  const confirmed = stripe.confirmSetup(clientSecret, TEST_CARDS.ok);
  if (!confirmed.ok) throw new Error(confirmed.error.message);
  expect((await session.call("POST", "/billing/payment-method/confirm", { setupIntentId: confirmed.setupIntent.id })).status).toBe(200);
}

/** The organization's entries of `action`, oldest first. */
async function entries(admin: Session, action: string): Promise<AuditEntry[]> {
  const response = await admin.call("GET", `/audit?action=${action}`);
  expect(response.status).toBe(200);
  return ((await response.json()).entries as AuditEntry[]).reverse();
}

const manual = { paymentMode: "manual", autoPaymentConfig: null };
const auto = (thresholdAmount: number, rechargeAmount: number) => ({ paymentMode: "auto", autoPaymentConfig: { thresholdAmount, rechargeAmount } });

describe("POST /billing/auto-payment-config, twice at once", () => {
  // Funds above every threshold below: the saves start no recharge.
  async function withFunds() {
    const team = await platform();
    await addCard(team.admin);
    expect((await team.admin.call("POST", "/billing/add-funds", { amount: 50 })).status).toBe(200);
    return team;
  }
  const save = (who: Session, body: object) => who.call("POST", "/billing/auto-payment-config", body);

  it("writes one entry for one change: the second save changed nothing", async () => {
    const { admin, member } = await withFunds();
    const body = { enabled: true, thresholdAmount: 10, rechargeAmount: 20 };
    const answers = await Promise.all([save(admin, body), save(member, body)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    expect((await entries(admin, "auto_payment.changed")).map((e) => [e.oldValue, e.newValue])).toEqual([[manual, auto(10, 20)]]);

    const off = await Promise.all([save(admin, { enabled: false }), save(member, { enabled: false })]);
    expect(off.map((r) => r.status)).toEqual([200, 200]);
    expect((await entries(admin, "auto_payment.changed")).map((e) => [e.oldValue, e.newValue])).toEqual([
      [manual, auto(10, 20)],
      [auto(10, 20), manual],
    ]);
  });

  it("gives each entry the state its save replaced, so the entries chain", async () => {
    const { admin, member } = await withFunds();
    const answers = await Promise.all([
      save(admin, { enabled: true, thresholdAmount: 10, rechargeAmount: 20 }),
      save(member, { enabled: true, thresholdAmount: 15, rechargeAmount: 30 }),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const changes = await entries(admin, "auto_payment.changed");
    expect(changes).toHaveLength(2);
    expect(changes[0].oldValue).toEqual(manual);
    expect(changes[1].oldValue).toEqual(changes[0].newValue);
    expect(changes[1].newValue).toEqual(await (await admin.call("GET", "/billing/config")).json());
  });

  it("still refuses as before: no card, or an amount out of bounds, writes nothing", async () => {
    const { admin } = await platform();
    const noCard = await save(admin, { enabled: true, thresholdAmount: 10, rechargeAmount: 20 });
    expect({ status: noCard.status, body: await noCard.json() }).toEqual({ status: 400, body: { error: NO_PAYMENT_METHOD } });
    await addCard(admin);
    const refused = await save(admin, { enabled: true, thresholdAmount: -1, rechargeAmount: 20 });
    expect(refused.status).toBe(400);
    expect((await refused.json()).fields).toHaveProperty("thresholdAmount");
    expect(await entries(admin, "auto_payment.changed")).toEqual([]);
  });
});

describe("DELETE /billing/payment-method, twice at once", () => {
  it("removes the card once: one entry, and the second call answers as a removal with no card on file does", async () => {
    const { admin, member } = await platform();
    await addCard(admin);
    // Both read the card before either has it detached (Stripe's answer takes a while).
    stripe.answerDetachesTogether(2);
    const answers = await Promise.all([admin.call("DELETE", "/billing/payment-method"), member.call("DELETE", "/billing/payment-method")]);
    const bodies = await Promise.all(answers.map((r) => r.json()));
    const nothingLeft = await admin.call("DELETE", "/billing/payment-method");
    const noCard = { status: nothingLeft.status, body: await nothingLeft.json() };
    expect(noCard).toEqual({ status: 404, body: { error: "No payment method on file" } });
    expect(answers.map((r, i) => ({ status: r.status, body: bodies[i] })).sort((a, b) => a.status - b.status)).toEqual([
      { status: 200, body: { ok: true } },
      noCard,
    ]);
    expect(await entries(admin, "payment_method.removed")).toHaveLength(1);
    expect(await (await admin.call("GET", "/billing/payment-method")).json()).toEqual({ paymentMethod: null });
  });
});

describe("an entry nobody asked for carries no address", () => {
  /** A priced model ($100 per million output tokens) the members chat with. */
  async function pricedModel() {
    await saveModel(h.deps, {
      name: "fake-echo",
      displayName: "fake-echo",
      provider: "vllm",
      contextSize: 32768,
      baseUrl: upstream.url,
      upstreamModel: "echo",
      rateCard: { id: "rc-fake-echo", inputPerMillion: 1, outputPerMillion: 100 },
    });
  }
  /** Auto mode, set as the organization's own settings would be, without the recharge a save starts. */
  async function autoMode(orgId: number, thresholdMicros: number) {
    await h.deps.db
      .updateTable("billing_accounts")
      .set({ payment_mode: "auto", auto_enabled: 1, auto_threshold_micros: thresholdMicros, auto_recharge_micros: 10_000_000 })
      .where("org_id", "=", orgId)
      .execute();
  }
  const chatFromAddress = (member: Session) =>
    h.fetch("/chat/completions", {
      method: "POST",
      cookie: member.cookie,
      headers: { "x-forwarded-for": MEMBERS_ADDRESS },
      json: { model: "fake-echo", messages: [{ role: "user", content: "hi" }], stream: false, max_tokens: 10 },
    });
  const recharges = async (admin: Session) =>
    (await entries(admin, "funds.added")).filter((e) => (e.newValue as { description: string }).description !== "Added funds");

  it("an automatic recharge started by metering a member's console chat: 'Platform', without the member's address", async () => {
    const { admin, member } = await platform();
    await pricedModel();
    await addCard(admin);
    expect((await admin.call("POST", "/billing/add-funds", { amount: 10 })).status).toBe(200);
    await autoMode(admin.orgId, 20_000_000);
    expect((await chatFromAddress(member)).status).toBe(200);
    await rechargesFinished(h.deps);
    expect(await recharges(admin)).toEqual([expect.objectContaining({ actor: null, address: null, newValue: { amount: 10, description: "Auto-recharge" } })]);
  });

  it("an automatic recharge started by a member's console chat refused for balance: 'Platform', without the member's address", async () => {
    const { admin, member } = await platform();
    await pricedModel();
    await addCard(admin);
    await autoMode(admin.orgId, 20_000_000);
    expect((await chatFromAddress(member)).status).toBe(402);
    await rechargesFinished(h.deps);
    expect(await recharges(admin)).toEqual([expect.objectContaining({ actor: null, address: null, newValue: { amount: 10, description: "Auto-recharge" } })]);
  });

  it("a refund Stripe's signed webhook reports: 'Platform', without Stripe's address", async () => {
    const { admin } = await platform();
    await addCard(admin);
    expect((await admin.call("POST", "/billing/add-funds", { amount: 25 })).status).toBe(200);
    const paid = [...stripe.paymentIntents.values()].filter((p) => p.status === "succeeded").at(-1)!;
    const event = stripe.event("charge.refunded", { id: "ch_refunded_audit", object: "charge", payment_intent: paid.id, amount: 2500, amount_refunded: 1000 });
    const delivered = await h.fetch("/billing/webhook", {
      method: "POST",
      body: event.payload,
      headers: { "stripe-signature": event.signature, "x-forwarded-for": "198.51.100.7" },
    });
    expect(delivered.status).toBe(200);
    expect(await entries(admin, "funds.reversed")).toEqual([
      expect.objectContaining({ actor: null, address: null, newValue: { amount: -10, description: "Refund" } }),
    ]);
  });

  it("a person's own change still carries their address", async () => {
    const { admin } = await platform();
    const made = await h.fetch("/organizations/invites", {
      method: "POST",
      cookie: admin.cookie,
      headers: { "x-forwarded-for": MEMBERS_ADDRESS },
      json: { status: "multi-use" },
    });
    expect(made.status).toBe(201);
    expect((await entries(admin, "invite.created")).at(-1)).toMatchObject({ actor: { id: admin.userId }, address: MEMBERS_ADDRESS });
  });
});

describe("DELETE /organizations/invites/{id} of a code that can no longer be used", () => {
  const DAY = 24 * 60 * 60_000;
  const idOf = async (code: string) => (await h.deps.db.selectFrom("invites").select("id").where("code", "=", code).executeTakeFirstOrThrow()).id;
  const revokedAt = async (id: number) =>
    (await h.deps.db.selectFrom("invites").select("revoked_at").where("id", "=", id).executeTakeFirstOrThrow()).revoked_at;

  it("leaves an expired code as it is: 200, nothing written, as for a code already revoked", async () => {
    const { admin } = await platform();
    const made = await admin.call("POST", "/organizations/invites", { status: "multi-use", expiresAt: clock + DAY });
    const id = await idOf((await made.json()).code);
    clock += DAY;
    const response = await admin.call("DELETE", `/organizations/invites/${id}`);
    expect(response.status).toBe(200);
    expect(await entries(admin, "invite.revoked")).toEqual([]);
    expect(await revokedAt(id)).toBeNull();
  });

  it("leaves a used-up code as it is", async () => {
    const { admin } = await platform();
    const { code } = await (await admin.call("POST", "/organizations/invites", { status: "single-use" })).json();
    const newcomer = await h.signIn();
    expect((await newcomer.call("POST", `/auth/join/${code}`)).status).toBe(200);
    const id = await idOf(code);
    expect((await admin.call("DELETE", `/organizations/invites/${id}`)).status).toBe(200);
    expect(await entries(admin, "invite.revoked")).toEqual([]);
    expect(await revokedAt(id)).toBeNull();
  });

  it("still revokes a usable code once, and another organization's code is still 404", async () => {
    const { admin, outsider } = await platform();
    const { code } = await (await admin.call("POST", "/organizations/invites", { status: "multi-use", expiresAt: clock + DAY })).json();
    const id = await idOf(code);
    expect((await outsider.call("DELETE", `/organizations/invites/${id}`)).status).toBe(404);
    expect((await admin.call("DELETE", `/organizations/invites/${id}`)).status).toBe(200);
    expect((await admin.call("DELETE", `/organizations/invites/${id}`)).status).toBe(200);
    expect(await entries(admin, "invite.revoked")).toHaveLength(1);
    expect(await revokedAt(id)).not.toBeNull();
  });
});
