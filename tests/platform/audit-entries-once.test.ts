import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AuditEntry } from "@contract/audit";
import { NO_PAYMENT_METHOD } from "@contract/billing";
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
