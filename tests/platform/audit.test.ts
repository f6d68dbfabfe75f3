import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AuditEntry, AuditPage } from "@contract/audit";
import { grantCredit } from "../../platform/billing/credits";
import { FakeStripe, TEST_CARDS } from "../fakes/stripe";
import type { Harness, Session } from "./harness";
import { createHarness } from "./harness";
import { afterBom } from "../csv";

/** Issue 16: every admin action and security event leaves one entry; nobody edits or deletes one. */

const WEBHOOK_SECRET = "whsec_test_secret";
const fake = new FakeStripe({ webhookSecret: WEBHOOK_SECRET });
let stripe: { secretKey: string; publishableKey: string; webhookSecret: string; host: string; port: number; protocol: "http" };
let h: Harness;
let clock = Date.now();

beforeAll(async () => {
  const at = await fake.listen();
  stripe = { secretKey: "sk_test_fake", publishableKey: "pk_test_fake", webhookSecret: WEBHOOK_SECRET, host: at.host, port: at.port, protocol: "http" };
});
afterAll(() => fake.close());
afterEach(async () => {
  await h?.close();
});

async function platform() {
  clock = Date.now();
  h = await createHarness({ stripe }, () => clock);
  return h;
}

async function log(session: Session, query = ""): Promise<AuditEntry[]> {
  const response = await session.call("GET", `/audit${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as AuditPage).entries;
}

async function rawRows() {
  return h.deps.db.selectFrom("audit_log").selectAll().orderBy("id").execute();
}

/** The one entry of `action` in the organization's log (fails on none or several). */
async function only(session: Session, action: string): Promise<AuditEntry> {
  const entries = (await log(session, `?action=${action}`)).filter((e) => e.action === action);
  expect(entries, action).toHaveLength(1);
  return entries[0];
}

async function addCard(session: Session) {
  const { clientSecret } = await (await session.call("POST", "/billing/payment-method")).json();
  const confirmed = fake.confirmSetup(clientSecret, TEST_CARDS.ok);
  if (!confirmed.ok) throw new Error(confirmed.error.message);
  expect((await session.call("POST", "/billing/payment-method/confirm", { setupIntentId: confirmed.setupIntent.id })).status).toBe(200);
}

describe("the organization's audit log", () => {
  it("records each admin action once, with who, the old and new values, and never a secret", async () => {
    await platform();
    const operator = await h.signIn("Operator", "operator@example.test");
    const admin = await h.admin("Acme");
    const member = await h.signIn("Mia Member", "mia@example.test");
    await h.join(admin, member);
    const actor = { id: admin.userId, name: expect.any(String), email: admin.email };

    const created = await (await admin.call("POST", "/tokens", { scopes: ["chat"], expiresAt: null })).json();
    const settings = { budget: { amount: 5, period: "month" }, allowedModels: null, rateLimitRpm: 60 };
    await admin.call("PUT", `/tokens/${created.publicId}`, settings);
    // A form saved again as it was changes nothing, and the log says nothing (each `only` below is one entry).
    expect((await admin.call("PUT", `/tokens/${created.publicId}`, settings)).status).toBe(200);
    const rolled = await (await admin.call("POST", `/tokens/${created.publicId}/roll`, { grace: "1h" })).json();
    await admin.call("DELETE", `/tokens/${created.publicId}`);
    const reset = await (await admin.call("POST", "/organizations/reset-token")).json();
    await admin.call("PUT", `/organizations/members/${member.userId}`, { role: "admin" });
    await admin.call("DELETE", `/organizations/members/${member.userId}`);
    await addCard(admin);
    expect((await admin.call("POST", "/billing/add-funds", { amount: 12.5 })).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      expect((await admin.call("POST", "/billing/auto-payment-config", { enabled: true, thresholdAmount: 10, rechargeAmount: 20 })).status).toBe(200);
      expect((await admin.call("POST", "/billing/spend-cap", { monthlyCap: 100 })).status).toBe(200);
    }
    expect((await admin.call("DELETE", "/billing/payment-method")).status).toBe(200);
    // The operator acts from the system organization.
    expect((await operator.call("PUT", `/system/organizations/${admin.orgId}`, { name: "Acme Corp", paymentMode: "invoice" })).status).toBe(200);
    expect((await operator.call("POST", `/system/organizations/${admin.orgId}/credits`, { amount: 7, reason: "Trial" })).status).toBe(200);

    expect(await only(admin, "organization.created")).toMatchObject({ actor, newValue: { name: "Acme" } });
    expect(await only(admin, "invite.created")).toMatchObject({ actor, newValue: { kind: "multi-use" } });
    expect(await only(admin, "member.joined")).toMatchObject({ actor: { id: member.userId, email: member.email }, newValue: { role: "member" } });
    expect(await only(admin, "token.created")).toMatchObject({ actor, target: created.publicId, newValue: { scopes: ["chat"], expiresAt: null } });
    expect(await only(admin, "token.settings_changed")).toMatchObject({
      actor,
      target: created.publicId,
      oldValue: { budget: null, allowedModels: null, rateLimitRpm: null },
      newValue: { budget: { amount: 5, period: "month" }, allowedModels: null, rateLimitRpm: 60 },
    });
    expect(await only(admin, "token.rolled")).toMatchObject({ actor, target: created.publicId, newValue: { grace: "1h" } });
    expect(await only(admin, "token.revoked")).toMatchObject({ actor, target: created.publicId });
    expect(await only(admin, "organization.token_reset")).toMatchObject({ actor, target: reset.publicId });
    expect(await only(admin, "member.role_changed")).toMatchObject({ actor, target: member.email, oldValue: { role: "member" }, newValue: { role: "admin" } });
    expect(await only(admin, "member.removed")).toMatchObject({ actor, target: member.email, oldValue: { role: "admin" } });
    expect(await only(admin, "payment_method.added")).toMatchObject({ actor, oldValue: null, newValue: { last4: expect.stringMatching(/^\d{4}$/) } });
    expect(await only(admin, "funds.added")).toMatchObject({ actor, newValue: { amount: 12.5 } });
    expect(await only(admin, "auto_payment.changed")).toMatchObject({
      actor,
      oldValue: { paymentMode: "manual", autoPaymentConfig: null },
      newValue: { paymentMode: "auto", autoPaymentConfig: { thresholdAmount: 10, rechargeAmount: 20 } },
    });
    expect(await only(admin, "spend_cap.changed")).toMatchObject({ actor, oldValue: { monthlyCap: null }, newValue: { monthlyCap: 100 } });
    expect(await only(admin, "payment_method.removed")).toMatchObject({ actor, oldValue: { last4: expect.stringMatching(/^\d{4}$/) } });
    const operatorActor = { id: operator.userId, email: operator.email };
    expect(await only(admin, "organization.renamed")).toMatchObject({ actor: operatorActor, oldValue: { name: "Acme" }, newValue: { name: "Acme Corp" } });
    expect(await only(admin, "organization.payment_mode_changed")).toMatchObject({
      actor: operatorActor,
      oldValue: { paymentMode: "auto" },
      newValue: { paymentMode: "invoice" },
    });
    expect(await only(admin, "credit.granted")).toMatchObject({ actor: operatorActor, newValue: { amount: 7, reason: "Trial" } });

    // No secret anywhere in the log: not the token's, not the rolled one's, not the reset one's, not an invite code.
    const everything = JSON.stringify(await rawRows());
    for (const secret of [created.token, rolled.token, reset.token]) expect(everything).not.toContain(secret);
    expect(everything).not.toMatch(/sk-[A-Za-z0-9_-]{20,}/);
    const invites = await h.deps.db.selectFrom("invites").select("code").execute();
    for (const { code } of invites) expect(everything).not.toContain(code);
    // Entries carry a time.
    for (const entry of await log(admin)) expect(Date.parse(entry.timestamp)).toBeGreaterThan(0);
  });

  it("records a sign-in in each organization of the user, with the address it came from", async () => {
    await platform();
    const admin = await h.admin("Acme");
    const start = await h.fetch("/auth/google");
    const flow = start.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const authorize = new URL(start.headers.get("location")!);
    const form = new URLSearchParams({ ...Object.fromEntries(authorize.searchParams), name: "Again", email: admin.email });
    // Same email, same dev subject: the same user signs in again, from a given address.
    const issued = await h.fetch("/auth/dev/authorize", { method: "POST", body: form, headers: { "content-type": "application/x-www-form-urlencoded" } });
    const callback = new URL(issued.headers.get("location")!);
    const done = await h.fetch(`/auth/google/callback${callback.search}`, { cookie: flow, headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(done.status).toBe(302);
    const signIns = (await log(admin, "?action=session.signed_in")).filter((e) => e.address === "203.0.113.9");
    expect(signIns).toHaveLength(1);
    expect(signIns[0]).toMatchObject({ organizationId: admin.orgId, actor: { id: admin.userId }, newValue: { provider: "google" } });
  });

  it("records a card once when the browser's return and Stripe's webhook record it at the same moment", async () => {
    await platform();
    const admin = await h.admin("Acme");
    const { clientSecret } = await (await admin.call("POST", "/billing/payment-method")).json();
    const confirmed = fake.confirmSetup(clientSecret, TEST_CARDS.ok);
    if (!confirmed.ok) throw new Error(confirmed.error.message);
    fake.answerCardReadsTogether(3);
    const answers = await Promise.all([1, 2, 3].map(() => admin.call("POST", "/billing/payment-method/confirm", { setupIntentId: confirmed.setupIntent.id })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    await only(admin, "payment_method.added");
  });

  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))("makes no change whose entry could not be written (SQLite)", async () => {
    await platform();
    const admin = await h.admin("Acme");
    const { sql } = await import("kysely");
    const created = await (await admin.call("POST", "/tokens", { scopes: ["chat"], expiresAt: null })).json();
    // The audit log refuses every entry: as a crash between the change and its entry.
    await sql`create trigger no_audit before insert on audit_log begin select raise(abort, 'crash'); end`.execute(h.deps.db);
    const tokensBefore = (await (await admin.call("GET", "/tokens")).json()).length;
    expect((await admin.call("POST", "/tokens", { scopes: ["chat"], expiresAt: null })).status).toBe(500);
    expect((await admin.call("DELETE", `/tokens/${created.publicId}`)).status).toBe(500);
    expect((await admin.call("POST", "/billing/spend-cap", { monthlyCap: 5 })).status).toBe(500);
    expect((await admin.call("POST", "/organizations/invites", { status: "single-use" })).status).toBe(500);
    await sql`drop trigger no_audit`.execute(h.deps.db);
    const tokens = (await (await admin.call("GET", "/tokens")).json()) as { publicId: string; revoked: boolean }[];
    expect(tokens).toHaveLength(tokensBefore);
    expect(tokens.find((t) => t.publicId === created.publicId)?.revoked).toBe(false);
    expect((await (await admin.call("GET", "/billing/spend-cap")).json()).monthlyCap).toBeNull();
    expect(await (await admin.call("GET", "/organizations/invites")).json()).toEqual([]);
  });

  it("records an invite's revocation once, even when it is revoked twice", async () => {
    await platform();
    const admin = await h.admin("Acme");
    const created = await admin.call("POST", "/organizations/invites", { status: "multi-use", maxUses: 5 });
    expect(created.status).toBe(201);
    const [invite] = (await (await admin.call("GET", "/organizations/invites")).json()) as { id: number; code: string }[];
    expect((await admin.call("DELETE", `/organizations/invites/${invite.id}`)).status).toBe(200);
    expect((await admin.call("DELETE", `/organizations/invites/${invite.id}`)).status).toBe(200);
    const entry = await only(admin, "invite.revoked");
    expect(entry).toMatchObject({ actor: { id: admin.userId }, target: `${invite.code.slice(0, 4)}…`, oldValue: { kind: "multi-use" } });
    expect(JSON.stringify(entry)).not.toContain(invite.code);
    const made = await only(admin, "invite.created");
    expect(made.target).toBe(`${invite.code.slice(0, 4)}…`);
    expect(JSON.stringify(made)).not.toContain(invite.code);
  });

  it("an operator's credit from the CLI is recorded without an actor", async () => {
    await platform();
    const admin = await h.admin("Acme");
    await grantCredit(h.deps, admin.orgId, 3, "Support");
    expect(await only(admin, "credit.granted")).toMatchObject({ actor: null, address: null, newValue: { amount: 3, reason: "Support" } });
  });

  it("names the operator of a command-line change (a name, no user), not the platform", async () => {
    await platform();
    const operator = await h.signIn("Operator", "operator@example.test");
    const admin = await h.admin("Acme");
    await grantCredit({ ...h.deps, operator: "Command line (alice)" }, admin.orgId, 3, "Support");
    expect(await only(admin, "credit.granted")).toMatchObject({ actor: { id: null, name: "Command line (alice)", email: null } });
    const csv = await (await operator.call("GET", `/system/audit/export?organization=${admin.orgId}&action=credit.granted`)).text();
    expect(csv).toContain(",Command line (alice),,");
  });

  it("records who became a system admin, and by which rule: the first sign-in, SYSTEM_ADMINS (once, not at every sign-in)", async () => {
    clock = Date.now();
    h = await createHarness({ stripe, systemAdmins: ["grace@example.test"] }, () => clock);
    const operator = await h.signIn("Operator", "operator@example.test");
    await h.signIn("Grace", "Grace@Example.test");
    await h.signIn("Grace", "Grace@Example.test");
    await h.signIn("Someone", "someone@example.test");
    const joined = (await log(operator, "?action=member.joined")).filter((e) => e.organizationId === 1);
    expect(joined.map((e) => ({ actor: e.actor, target: e.target, newValue: e.newValue }))).toEqual([
      { actor: null, target: "Grace@Example.test", newValue: { role: "admin", via: "SYSTEM_ADMINS" } },
      { actor: null, target: "operator@example.test", newValue: { role: "admin", via: "first sign-in" } },
    ]);
  });

  it("is for admins only: members get 403, other organizations' entries are invisible", async () => {
    await platform();
    const { admin, member, outsider } = await h.team();
    await outsider.call("POST", "/tokens", { scopes: [], expiresAt: null });
    expect((await member.call("GET", "/audit")).status).toBe(403);
    expect((await member.call("GET", "/audit/export")).status).toBe(403);
    expect((await h.fetch("/audit")).status).toBe(401);
    const mine = await log(admin);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((e) => e.organizationId === admin.orgId)).toBe(true);
    expect(mine.some((e) => e.action === "token.created")).toBe(false);
    const csv = await (await admin.call("GET", "/audit/export")).text();
    expect(csv).not.toContain(outsider.email);
    // The system variant is the system organization's, not any organization's admins'.
    expect((await admin.call("GET", "/system/audit")).status).toBe(403);
  });

  it("has no route to edit or delete an entry, and the database refuses it too", async () => {
    await platform();
    const admin = await h.admin("Acme");
    const [entry] = await log(admin);
    for (const method of ["PUT", "PATCH", "DELETE", "POST"]) {
      for (const path of ["/audit", `/audit/${entry.id}`]) expect((await admin.call(method, path, {})).status, `${method} ${path}`).toBe(404);
    }
    await expect(h.deps.db.updateTable("audit_log").set({ action: "member.removed" }).where("id", "=", entry.id).execute()).rejects.toThrow(/append-only/);
    await expect(h.deps.db.deleteFrom("audit_log").where("id", "=", entry.id).execute()).rejects.toThrow(/append-only/);
    expect((await log(admin))[0]).toEqual(entry);
  });

  it("filters by action, actor and time, and pages by keyset", async () => {
    await platform();
    const { admin, member } = await h.team();
    const start = clock;
    clock += 60_000;
    for (let i = 0; i < 5; i++) await admin.call("POST", "/tokens", { scopes: [], expiresAt: null });
    clock += 60_000;
    await admin.call("PUT", `/organizations/members/${member.userId}`, { role: "admin" });

    expect((await log(admin, "?action=token.created")).length).toBe(5);
    const byMember = await log(admin, `?actor=${encodeURIComponent(member.email.toUpperCase())}`);
    expect(byMember.length).toBeGreaterThan(0);
    expect(byMember.every((e) => e.actor?.id === member.userId)).toBe(true);
    // Capitals beyond A–Z (SQLite's lower() folds A–Z alone): typed as shown, the email still matches.
    // (As a provider may send it: the development sign-in form takes ASCII emails only.)
    await h.deps.db
      .insertInto("audit_log")
      .values({ org_id: admin.orgId, actor_id: null, actor_name: "Ömer", actor_email: "Ömer@Örnek.test", action: "member.joined", created_at: clock })
      .execute();
    expect((await log(admin, `?actor=${encodeURIComponent("Ömer@Örnek.test")}`)).map((e) => e.actor?.name)).toEqual(["Ömer"]);
    const window = await log(admin, `?from=${start + 30_000}&to=${start + 90_000}`);
    expect(window.map((e) => e.action)).toEqual(Array(5).fill("token.created"));
    expect((await admin.call("GET", "/audit?action=nope")).status).toBe(400);

    const first = (await (await admin.call("GET", "/audit?limit=4")).json()) as AuditPage;
    expect(first.entries).toHaveLength(4);
    expect(first.nextBefore).toBe(first.entries[3].id);
    const second = (await (await admin.call("GET", `/audit?limit=4&before=${first.nextBefore}`)).json()) as AuditPage;
    expect(second.entries[0].id).toBeLessThan(first.entries[3].id);
    const all = await log(admin, "?limit=200");
    expect([...first.entries, ...second.entries].map((e) => e.id)).toEqual(all.slice(0, first.entries.length + second.entries.length).map((e) => e.id));
  });

  it("exports the filtered log as CSV, every row, formulas neutralised", async () => {
    await platform();
    const admin = await h.admin("Acme");
    const evil = await h.signIn('=HYPERLINK("http://x")', "evil@example.test");
    await h.join(admin, evil);
    for (let i = 0; i < 3; i++) await admin.call("POST", "/tokens", { scopes: [], expiresAt: null });
    const response = await admin.call("GET", "/audit/export?action=token.created");
    expect(response.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(response.headers.get("content-disposition")).toMatch(/attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = afterBom(await response.arrayBuffer())
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe("id,timestamp,organization_id,action,actor_name,actor_email,target,old_value,new_value,address,actor_email_verified");
    expect(lines).toHaveLength(4);
    expect(lines.slice(1).every((l) => l.includes(",token.created,"))).toBe(true);
    const joined = (await (await admin.call("GET", "/audit/export?action=member.joined")).text()).split("\r\n")[1];
    expect(joined).toContain(`"'=HYPERLINK(""http://x"")"`);
  });
});

describe("the system organization's view", () => {
  it("sees every organization's entries and filters by organization", async () => {
    await platform();
    const operator = await h.signIn("Operator", "operator@example.test");
    const acme = await h.admin("Acme");
    const other = await h.admin("Other");
    const all = (await (await operator.call("GET", "/system/audit?limit=200")).json()) as AuditPage;
    const orgs = new Set(all.entries.map((e) => e.organizationId));
    expect(orgs.has(acme.orgId) && orgs.has(other.orgId)).toBe(true);
    const one = (await (await operator.call("GET", `/system/audit?organization=${other.orgId}`)).json()) as AuditPage;
    expect(one.entries.length).toBeGreaterThan(0);
    expect(one.entries.every((e) => e.organizationId === other.orgId && e.organizationName === "Other")).toBe(true);
    // An entry names its organization as it is called now.
    expect((await operator.call("PUT", `/system/organizations/${acme.orgId}`, { name: "Acme Corp" })).status).toBe(200);
    const renamed = (await (await operator.call("GET", `/system/audit?organization=${acme.orgId}`)).json()) as AuditPage;
    expect(renamed.entries.map((e) => e.organizationName)).toEqual(renamed.entries.map(() => "Acme Corp"));
    expect(renamed.entries.length).toBeGreaterThan(1);
    const csv = await (await operator.call("GET", `/system/audit/export?organization=${acme.orgId}`)).text();
    expect(csv).toContain(acme.email);
    expect(csv).not.toContain(other.email);
  });
});
