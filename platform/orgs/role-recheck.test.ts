import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Harness, Session } from "../../tests/platform/harness";
import { createHarness } from "../../tests/platform/harness";
import { SYSTEM_ORG_ID } from "@contract/system";
import { grantCredit, reverseCredit } from "../billing/credits";
import { deleteModel, saveModel } from "../models/service";
import { setSpendCap } from "../spend/cap";
import { updateOrganization } from "../system/service";
import { createToken, resetPrimaryToken, revokeToken, rollToken, updateTokenSettings } from "../tokens/service";
import { createInvite, revokeInvite } from "./service";

// The adminOnly middleware reads the caller's role when the request begins; these calls stand for a
// request whose caller another admin demoted (or removed) before its write ran.

let h: Harness;
let admin: Session & { orgId: number };
let other: Session;

beforeEach(async () => {
  h = await createHarness();
  const team = await h.team();
  admin = team.admin;
  other = team.member;
  // A second admin, so that the first one can lose their role (an organization keeps one admin).
  expect((await admin.call("PUT", `/organizations/members/${other.userId}`, { role: "admin" })).status).toBe(200);
});
afterEach(() => h.close());

async function demote(userId: number) {
  await h.deps.db.updateTable("memberships").set({ role: "member" }).where("org_id", "=", admin.orgId).where("user_id", "=", userId).execute();
}

async function remove(userId: number) {
  await h.deps.db.deleteFrom("memberships").where("org_id", "=", admin.orgId).where("user_id", "=", userId).execute();
}

async function auditCount() {
  const row = await h.deps.db
    .selectFrom("audit_log")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("org_id", "=", admin.orgId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const refused = { status: 403, message: "Only admins can do this" };

describe.each([
  ["demoted to member", demote],
  ["removed from the organization", remove],
])("an admin %s while their request is in flight", (_, lose) => {
  it("can't create an invite code: nothing is written", async () => {
    const invites = async () => h.deps.db.selectFrom("invites").select("id").where("org_id", "=", admin.orgId).execute();
    const [before, entries] = [await invites(), await auditCount()];
    await lose(admin.userId);
    await expect(createInvite(h.deps, admin.orgId, admin.userId, { status: "multi-use" })).rejects.toMatchObject(refused);
    expect(await invites()).toEqual(before);
    expect(await auditCount()).toBe(entries);
  });

  it("can't revoke an invite code: it stays usable and nothing is written", async () => {
    await createInvite(h.deps, admin.orgId, other.userId, { status: "multi-use" });
    const invite = await h.deps.db
      .selectFrom("invites")
      .select(["id", "code"])
      .where("org_id", "=", admin.orgId)
      .where("created_by", "=", other.userId)
      .executeTakeFirstOrThrow();
    const entries = await auditCount();
    await lose(admin.userId);
    await expect(revokeInvite(h.deps, admin.orgId, admin.userId, invite.id)).rejects.toMatchObject(refused);
    const after = await h.deps.db.selectFrom("invites").select("revoked_at").where("id", "=", invite.id).executeTakeFirstOrThrow();
    expect(after.revoked_at).toBeNull();
    expect(await auditCount()).toBe(entries);
    // The code still lets someone in.
    const newcomer = await h.signIn();
    expect((await newcomer.call("POST", `/auth/join/${invite.code}`)).status).toBe(200);
  });

  it("can't reset the organization's primary token: its secret stays and nothing is written", async () => {
    const primary = () =>
      h.deps.db
        .selectFrom("api_tokens")
        .select(["secret_hash", "rolled_at"])
        .where("org_id", "=", admin.orgId)
        .where("is_primary", "=", 1)
        .executeTakeFirstOrThrow();
    const [before, entries] = [await primary(), await auditCount()];
    await lose(admin.userId);
    await expect(resetPrimaryToken(h.deps, admin.orgId, admin.userId)).rejects.toMatchObject(refused);
    expect(await primary()).toEqual(before);
    expect(await auditCount()).toBe(entries);
  });
});

describe.each([
  ["demoted to member", demote],
  ["removed from the organization", remove],
])("an admin %s while a token request is in flight", (_, lose) => {
  const tokens = () => h.deps.db.selectFrom("api_tokens").selectAll().where("org_id", "=", admin.orgId).orderBy("id").execute();

  it("can't create, change, roll or revoke an API token: nothing is written", async () => {
    const { publicId } = await createToken(h.deps, admin.orgId, other.userId, { scopes: ["chat"], expiresAt: null });
    const [before, entries] = [await tokens(), await auditCount()];
    await lose(admin.userId);
    await expect(createToken(h.deps, admin.orgId, admin.userId, { scopes: ["chat"], expiresAt: null })).rejects.toMatchObject(refused);
    await expect(
      updateTokenSettings(h.deps, admin.orgId, admin.userId, publicId, { budget: null, allowedModels: ["x"], rateLimitRpm: 1 }),
    ).rejects.toMatchObject(refused);
    await expect(rollToken(h.deps, admin.orgId, admin.userId, publicId, "none")).rejects.toMatchObject(refused);
    await expect(revokeToken(h.deps, admin.orgId, admin.userId, publicId)).rejects.toMatchObject(refused);
    expect(await tokens()).toEqual(before);
    expect(await auditCount()).toBe(entries);
  });
});

describe.each([
  ["demoted to member", demote],
  ["removed from the organization", remove],
])("an admin %s while a spend cap request is in flight", (_, lose) => {
  it("can't set the monthly cap: it stays as it was and nothing is written", async () => {
    await setSpendCap(h.deps, admin.orgId, admin.userId, { monthlyCap: 50 });
    const account = () => h.deps.db.selectFrom("billing_accounts").selectAll().where("org_id", "=", admin.orgId).executeTakeFirstOrThrow();
    const [before, entries] = [await account(), await auditCount()];
    await lose(admin.userId);
    await expect(setSpendCap(h.deps, admin.orgId, admin.userId, { monthlyCap: 500 })).rejects.toMatchObject(refused);
    await expect(setSpendCap(h.deps, admin.orgId, admin.userId, { monthlyCap: null })).rejects.toMatchObject(refused);
    expect(await account()).toEqual(before);
    expect(await auditCount()).toBe(entries);
  });
});

// The system organization's writes: the caller must still be an admin of organization 1.
const model = { name: "qwen", displayName: "Qwen", provider: "vllm", contextSize: 8192, baseUrl: "http://upstream.test/v1" };

async function loseSystem(how: "demoted" | "removed", userId: number) {
  const membership = h.deps.db.selectFrom("memberships").select("role").where("org_id", "=", SYSTEM_ORG_ID).where("user_id", "=", userId);
  expect((await membership.executeTakeFirstOrThrow()).role).toBe("admin"); // the first user ever is a system admin
  if (how === "demoted") {
    await h.deps.db.updateTable("memberships").set({ role: "member" }).where("org_id", "=", SYSTEM_ORG_ID).where("user_id", "=", userId).execute();
  } else {
    await h.deps.db.deleteFrom("memberships").where("org_id", "=", SYSTEM_ORG_ID).where("user_id", "=", userId).execute();
  }
}

/** Everything the system writes touch: organizations, accounts, the ledger, models and every audit log. */
async function systemState() {
  const db = h.deps.db;
  return {
    organizations: await db.selectFrom("organizations").selectAll().orderBy("id").execute(),
    accounts: await db.selectFrom("billing_accounts").selectAll().orderBy("org_id").execute(),
    ledger: await db.selectFrom("ledger_entries").selectAll().orderBy("id").execute(),
    models: await db.selectFrom("models").selectAll().orderBy("name").execute(),
    audit: await db.selectFrom("audit_log").selectAll().orderBy("id").execute(),
  };
}

describe.each(["demoted", "removed"] as const)("a system admin %s while their request is in flight", (how) => {
  beforeEach(async () => {
    // Written by the operator's command line (no caller), as the system pages find them.
    await grantCredit(h.deps, admin.orgId, 10, "trial");
    await saveModel(h.deps, model);
  });

  it("can't rename an organization or set its payment mode: nothing is written", async () => {
    const before = await systemState();
    await loseSystem(how, admin.userId);
    await expect(updateOrganization(h.deps, admin.orgId, { name: "Renamed" }, admin.userId)).rejects.toMatchObject(refused);
    await expect(updateOrganization(h.deps, admin.orgId, { paymentMode: "invoice" }, admin.userId)).rejects.toMatchObject(refused);
    await expect(updateOrganization(h.deps, admin.orgId, { name: "Renamed", paymentMode: "invoice" }, admin.userId)).rejects.toMatchObject(refused);
    expect(await systemState()).toEqual(before);
  });

  it("can't grant or reverse credit: no ledger row, the balance stays", async () => {
    const before = await systemState();
    await loseSystem(how, admin.userId);
    await expect(grantCredit(h.deps, admin.orgId, 5, "goodwill", admin.userId)).rejects.toMatchObject(refused);
    await expect(reverseCredit(h.deps, admin.orgId, 5, "mistake", admin.userId)).rejects.toMatchObject(refused);
    expect(await systemState()).toEqual(before);
  });

  it("can't add, change or delete a model: the registry stays as it was", async () => {
    const before = await systemState();
    await loseSystem(how, admin.userId);
    await expect(saveModel(h.deps, { ...model, name: "other", mode: "add" }, admin.userId)).rejects.toMatchObject(refused);
    await expect(saveModel(h.deps, { ...model, displayName: "Changed", mode: "edit" }, admin.userId)).rejects.toMatchObject(refused);
    await expect(deleteModel(h.deps, model.name, admin.userId)).rejects.toMatchObject(refused);
    expect(await systemState()).toEqual(before);
  });
});

describe("an admin who still is one, of their organization and of the system organization", () => {
  it("sets the spend cap, and as a system admin renames, bills, credits and edits models", async () => {
    expect((await setSpendCap(h.deps, admin.orgId, admin.userId, { monthlyCap: 20 })).monthlyCap).toBe(20);
    const org = await updateOrganization(h.deps, admin.orgId, { name: "Acme Two", paymentMode: "invoice" }, admin.userId);
    expect(org).toMatchObject({ name: "Acme Two", paymentMode: "invoice" });
    await grantCredit(h.deps, admin.orgId, 5, "goodwill", admin.userId);
    expect((await reverseCredit(h.deps, admin.orgId, 2, "too much", admin.userId)).balance).toBe(3);
    await saveModel(h.deps, { ...model, mode: "add" }, admin.userId);
    await saveModel(h.deps, { ...model, displayName: "Qwen 3", mode: "edit" }, admin.userId);
    await deleteModel(h.deps, model.name, admin.userId);
    expect(await h.deps.db.selectFrom("models").select("name").where("name", "=", model.name).executeTakeFirst()).toBeUndefined();
  });
});

describe("an admin who still is one", () => {
  it("creates and revokes invite codes and resets the primary token", async () => {
    const invite = await createInvite(h.deps, admin.orgId, admin.userId, { status: "single-use" });
    const { id } = await h.deps.db.selectFrom("invites").select("id").where("code", "=", invite.code).executeTakeFirstOrThrow();
    await revokeInvite(h.deps, admin.orgId, admin.userId, id);
    expect((await h.deps.db.selectFrom("invites").select("revoked_at").where("id", "=", id).executeTakeFirstOrThrow()).revoked_at).not.toBeNull();
    expect((await resetPrimaryToken(h.deps, admin.orgId, admin.userId)).token).toMatch(/^sk-/);
  });
});
