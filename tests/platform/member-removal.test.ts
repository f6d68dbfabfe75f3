import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ApiToken } from "@contract/tokens";
import type { AuditEntry } from "@contract/audit";
import type { Harness, Session } from "./harness";
import { createHarness } from "./harness";

/**
 * Removing a member with `?revokeMade=true` ends the ways in they made: their API tokens and invite
 * codes. Without it, the removal alone, as before (the tokens are the organization's, SPEC §3).
 */
let h: Harness;
let admin: Session & { orgId: number };
let member: Session;
let outsider: Session & { orgId: number };

beforeEach(async () => {
  h = await createHarness();
  ({ admin, member, outsider } = await h.team());
});
afterEach(() => h.close());

/** Mia Member made an admin, so she can make tokens and codes. */
async function promote(who: Session) {
  expect((await admin.call("PUT", `/organizations/members/${who.userId}`, { role: "admin" })).status).toBe(200);
}

async function token(who: Session): Promise<ApiToken & { token: string }> {
  const response = await who.call("POST", "/tokens", { scopes: ["models:read"], expiresAt: null });
  expect(response.status).toBe(201);
  return response.json();
}

async function invite(who: Session): Promise<string> {
  const response = await who.call("POST", "/organizations/invites", { status: "multi-use" });
  expect(response.status).toBe(201);
  return (await response.json()).code;
}

const models = (secret: string) => h.fetch("/openai/v1/models", { headers: { authorization: `Bearer ${secret}` } });

async function tokens(): Promise<ApiToken[]> {
  return (await admin.call("GET", "/tokens")).json();
}

async function audit(action: string): Promise<AuditEntry[]> {
  const response = await admin.call("GET", `/audit?action=${action}`);
  expect(response.status).toBe(200);
  return (await response.json()).entries;
}

describe("DELETE /organizations/members/{id}?revokeMade=true", () => {
  it("revokes the tokens and codes the member made with the removal: their token is refused 401, their code joins no one", async () => {
    await promote(member);
    const mine = await token(member);
    const code = await invite(member);
    expect((await models(mine.token)).status).toBe(200);

    const response = await admin.call("DELETE", `/organizations/members/${member.userId}?revokeMade=true`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, revokedTokens: 1, revokedInvites: 1 });

    const refused = await models(mine.token);
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.message).toBe("This API token has been revoked");
    // Rejoining with a code they made (or saw) is refused.
    const rejoined = await member.call("POST", `/auth/join/${code}`);
    expect(rejoined.status).toBe(404);
    expect(((await (await admin.call("GET", "/organizations/members")).json()) as { id: number }[]).map((m) => m.id)).toEqual([admin.userId]);
  });

  it("writes the entries a manual revoke writes, one for each token and code", async () => {
    await promote(member);
    const [first, second] = [await token(member), await token(member)];
    const code = await invite(member);
    await admin.call("DELETE", `/organizations/members/${member.userId}?revokeMade=true`);
    const revoked = await audit("token.revoked");
    expect(revoked.map((e) => e.target).sort()).toEqual([first.publicId, second.publicId].sort());
    expect(revoked.every((e) => e.actor?.id === admin.userId)).toBe(true);
    expect(await audit("invite.revoked")).toMatchObject([{ actor: { id: admin.userId }, target: `${code.slice(0, 4)}…`, oldValue: { kind: "multi-use" } }]);
    expect(await audit("member.removed")).toMatchObject([{ target: member.email }]);
  });

  it("never revokes the primary token (even one the member made), or tokens and codes others made", async () => {
    await promote(member);
    const theirs = await token(admin);
    const adminCode = await invite(admin);
    const elsewhere = await token(outsider);
    await token(member);
    // The organization's primary token, as if the member had made it (an organization's creator does).
    await h.deps.db.updateTable("api_tokens").set({ created_by: member.userId }).where("org_id", "=", admin.orgId).where("is_primary", "=", 1).execute();

    const response = await admin.call("DELETE", `/organizations/members/${member.userId}?revokeMade=true`);
    expect(await response.json()).toEqual({ ok: true, revokedTokens: 1, revokedInvites: 0 });
    const list = await tokens();
    expect(list.find((t) => t.primary)?.revoked).toBe(false);
    expect(list.find((t) => t.publicId === theirs.publicId)?.revoked).toBe(false);
    expect((await models(theirs.token)).status).toBe(200);
    expect((await models(elsewhere.token)).status).toBe(200);
    const newcomer = await h.signIn("Newcomer");
    expect((await newcomer.call("POST", `/auth/join/${adminCode}`)).status).toBe(200);
  });

  it("leaves alone a token already revoked or expired (no second entry), and says 0 when they made nothing", async () => {
    await promote(member);
    const revoked = await token(member);
    expect((await admin.call("DELETE", `/tokens/${revoked.publicId}`)).status).toBe(200);
    const expired = await token(member);
    await h.deps.db
      .updateTable("api_tokens")
      .set({ expires_at: Date.now() - 1 })
      .where("public_id", "=", expired.publicId)
      .execute();
    const removed = await admin.call("DELETE", `/organizations/members/${member.userId}?revokeMade=true`);
    expect(await removed.json()).toEqual({ ok: true, revokedTokens: 0, revokedInvites: 0 });
    expect(await audit("token.revoked")).toHaveLength(1);
    expect((await tokens()).find((t) => t.publicId === expired.publicId)?.revoked).toBe(false);
  });

  it("keeps a removal without it as it was: the member's tokens keep working, their codes still join", async () => {
    await promote(member);
    const mine = await token(member);
    const code = await invite(member);
    for (const query of ["", "?revokeMade=false"]) {
      const response = await admin.call("DELETE", `/organizations/members/${member.userId}${query}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ok: true });
      expect((await models(mine.token)).status).toBe(200);
      expect(await audit("token.revoked")).toEqual([]);
      // Back in through their own code (which is what revokeMade=true prevents), to be removed again.
      expect((await member.call("POST", `/auth/join/${code}`)).status).toBe(200);
    }
  });

  it("refuses a revokeMade that is neither true nor false, removing no one", async () => {
    const response = await admin.call("DELETE", `/organizations/members/${member.userId}?revokeMade=yes`);
    expect(response.status).toBe(400);
    expect(((await (await admin.call("GET", "/organizations/members")).json()) as unknown[]).length).toBe(2);
  });

  it("revokes nothing when the removal is refused (the caller is no longer an admin)", async () => {
    // Mia made a code while she was an admin, then was made a member again.
    await promote(member);
    const code = await invite(member);
    expect((await admin.call("PUT", `/organizations/members/${member.userId}`, { role: "member" })).status).toBe(200);
    const refused = await member.call("DELETE", `/organizations/members/${admin.userId}?revokeMade=true`);
    expect(refused.status).toBe(403);
    const newcomer = await h.signIn("Newcomer");
    expect((await newcomer.call("POST", `/auth/join/${code}`)).status).toBe(200);
  });
});
