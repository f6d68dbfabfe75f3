import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ApiToken } from "@contract/tokens";
import { TOKEN_SCOPES } from "@contract/tokens";
import { authenticateApiToken } from "../../platform/tokens/service";
import { TOKEN_CREATION_PER_ORG } from "../../platform/ratelimit/limits";
import type { Harness, Session } from "./harness";
import { createHarness } from "./harness";

const DAY = 86_400_000;
let clock: number;
let h: Harness;
let admin: Session & { orgId: number };
let member: Session;
let outsider: Session & { orgId: number };

beforeEach(async () => {
  clock = Date.UTC(2025, 0, 15, 12, 0, 0);
  h = await createHarness({}, () => clock);
  ({ admin, member, outsider } = await h.team());
});
afterEach(() => h.close());

/** A token as listed, or as created (with its secret). */
type WireToken = ApiToken & { token?: string };

async function list(session: Session): Promise<WireToken[]> {
  const response = await session.call("GET", "/tokens");
  expect(response.status).toBe(200);
  return response.json();
}

async function create(session: Session, body: unknown = { scopes: ["chat"], expiresAt: clock + 30 * DAY }) {
  return session.call("POST", "/tokens", body);
}

const bearer = (secret: string) => `Bearer ${secret}`;

describe("the primary organization token", () => {
  it("is made with the organization, listed first, marked primary, with every scope and no expiry", async () => {
    await create(admin);
    const tokens = await list(admin);
    expect(tokens).toHaveLength(2);
    expect(tokens[0]).toMatchObject({ primary: true, scopes: [...TOKEN_SCOPES], expiresAt: null, revoked: false });
    expect(tokens[1]).toMatchObject({ primary: false });
  });

  it("can't be revoked (409)", async () => {
    const [primary] = await list(admin);
    const response = await admin.call("DELETE", `/tokens/${primary.publicId}`);
    expect(response.status).toBe(409);
    expect((await response.json()).error).toMatch(/reset it instead/);
  });

  it("is reset by an admin: a new secret returned once, the old one refused from that moment", async () => {
    const first = await (await admin.call("POST", "/organizations/reset-token")).json();
    expect(first.token).toMatch(/^sk-[A-Za-z0-9_-]{43,}$/);
    expect(first.primary).toBe(true);
    expect(await authenticateApiToken(h.deps, bearer(first.token), "chat")).toMatchObject({ ok: true, orgId: admin.orgId });

    const second = await (await admin.call("POST", "/organizations/reset-token")).json();
    expect(second.token).not.toBe(first.token);
    expect(second.publicId).toBe(first.publicId);
    expect(await authenticateApiToken(h.deps, bearer(first.token), "chat")).toEqual({ ok: false, status: 401, error: "Invalid API token" });
    expect(await authenticateApiToken(h.deps, bearer(second.token), "audio")).toMatchObject({ ok: true });
    expect(JSON.stringify(await list(admin))).not.toContain(second.token);
  });

  it("is reset by admins only, and only in the caller's organization", async () => {
    const mine = await (await admin.call("POST", "/organizations/reset-token")).json();
    expect((await member.call("POST", "/organizations/reset-token")).status).toBe(403);
    expect((await h.fetch("/organizations/reset-token", { method: "POST" })).status).toBe(401);
    const theirs = await outsider.call("POST", "/organizations/reset-token");
    expect(theirs.status).toBe(200);
    expect(await authenticateApiToken(h.deps, bearer(mine.token), "chat")).toMatchObject({ ok: true, orgId: admin.orgId });
  });
});

describe("GET /tokens and GET /tokens/scopes", () => {
  it("lists the organization's tokens to admins and members, never with a secret", async () => {
    const created = await (await create(admin)).json();
    for (const who of [admin, member]) {
      const tokens = await list(who);
      expect(tokens.map((t) => t.publicId)).toContain(created.publicId);
      const body = JSON.stringify(tokens);
      expect(body).not.toContain(created.token);
      expect(body).not.toContain("sk-");
      for (const token of tokens)
        expect(Object.keys(token).sort()).toEqual([
          "allowedModels",
          "budget",
          "createdAt",
          "createdBy",
          "expiresAt",
          "lastUsedAt",
          "primary",
          "publicId",
          "rateLimitRpm",
          "revoked",
          "scopes",
          "version",
        ]);
    }
  });

  it("says who made each token: null for the primary token and for a maker no longer a user", async () => {
    await admin.call("PUT", `/organizations/members/${member.userId}`, { role: "admin" });
    const byMia = await (await create(member)).json();
    const byAdmin = await (await create(admin)).json();
    const session = await (await admin.call("GET", "/auth/session")).json();
    const made = async () => Object.fromEntries((await list(admin)).map((t) => [t.primary ? "primary" : t.publicId, t.createdBy]));
    expect(await made()).toEqual({
      primary: null,
      [byMia.publicId]: { id: member.userId, name: "Mia Member" },
      [byAdmin.publicId]: { id: admin.userId, name: session.user.name },
    });
    // Made by no user (the operator's command line, a row of before): null, as for a maker whose row is gone.
    await h.deps.db.updateTable("api_tokens").set({ created_by: null }).where("public_id", "=", byMia.publicId).execute();
    expect((await made())[byMia.publicId]).toBeNull();
  });

  it("shows a member of another organization only their own tokens", async () => {
    const created = await (await create(admin)).json();
    const theirs = await list(outsider);
    expect(theirs.map((t) => t.publicId)).not.toContain(created.publicId);
    expect(theirs).toHaveLength(1);
  });

  it("names the scopes the public API checks, to everybody in the organization", async () => {
    for (const who of [admin, member]) {
      const response = await who.call("GET", "/tokens/scopes");
      expect(await response.json()).toEqual(expect.arrayContaining(["chat", "models:read", "images", "audio"]));
    }
  });

  it("answers 401 signed out and 403 without an organization", async () => {
    for (const path of ["/tokens", "/tokens/scopes"]) expect((await h.fetch(path)).status).toBe(401);
    const loner = await h.signIn();
    expect((await loner.call("GET", "/tokens")).status).toBe(403);
  });
});

describe("POST /tokens", () => {
  it("creates a token for an admin and returns its sk- secret once", async () => {
    const response = await create(admin, { scopes: ["models:read", "chat"], expiresAt: clock + 7 * DAY });
    expect(response.status).toBe(201);
    const token = await response.json();
    expect(token).toMatchObject({ scopes: ["chat", "models:read"], expiresAt: clock + 7 * DAY, revoked: false, primary: false, createdAt: clock });
    expect(token.token).toMatch(/^sk-/);
    // 32 random bytes at least: 43 base64url characters.
    expect(Buffer.from(token.token.slice(3), "base64url").length).toBeGreaterThanOrEqual(32);
    expect(await authenticateApiToken(h.deps, bearer(token.token), "chat")).toMatchObject({ ok: true, orgId: admin.orgId, scopes: ["chat", "models:read"] });
  });

  it("accepts no scope at all and no expiry (never)", async () => {
    const response = await create(admin, { scopes: [], expiresAt: null });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ scopes: [], expiresAt: null });
  });

  it("refuses an unknown scope or an expiry in the past with 400", async () => {
    const unknown = await create(admin, { scopes: ["chat", "admin"], expiresAt: null });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error).toBe("Unknown scope: admin");
    const past = await create(admin, { scopes: ["chat"], expiresAt: clock - 1 });
    expect(past.status).toBe(400);
    expect((await past.json()).error).toBe("The expiry must be in the future");
    expect((await create(admin, { scopes: ["chat"], expiresAt: "tomorrow" })).status).toBe(400);
  });

  it("refuses a member (403) and the signed-out (401)", async () => {
    const response = await create(member);
    expect(response.status).toBe(403);
    expect((await response.json()).error).toBe("Only admins can do this");
    expect((await h.fetch("/tokens", { method: "POST", json: { scopes: [], expiresAt: null } })).status).toBe(401);
    expect(await list(admin)).toHaveLength(1);
  });

  it(`allows ${TOKEN_CREATION_PER_ORG.limit} creations a minute per organization, then answers 429 with Retry-After`, async () => {
    for (let i = 0; i < TOKEN_CREATION_PER_ORG.limit; i++) expect((await create(admin)).status).toBe(201);
    const limited = await create(admin);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect((await limited.json()).error).toMatch(/Too many tokens created/);
    // Another organization is not affected.
    expect((await create(outsider)).status).toBe(201);
    clock += 60_001;
    expect((await create(admin)).status).toBe(201);
  });
});

describe("DELETE /tokens/{publicId}", () => {
  it("revokes a token once; a second revoke is 409; the revoked secret is refused", async () => {
    const token = await (await create(admin)).json();
    const first = await admin.call("DELETE", `/tokens/${token.publicId}`);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ publicId: token.publicId, revoked: true });
    const second = await admin.call("DELETE", `/tokens/${token.publicId}`);
    expect(second.status).toBe(409);
    expect((await second.json()).error).toBe("This token is already revoked");
    expect(await authenticateApiToken(h.deps, bearer(token.token), "chat")).toEqual({ ok: false, status: 401, error: "This API token has been revoked" });
    expect((await list(member)).find((t) => t.publicId === token.publicId)?.revoked).toBe(true);
  });

  it("refuses an expired token with 409", async () => {
    const token = await (await create(admin, { scopes: ["chat"], expiresAt: clock + DAY })).json();
    clock += DAY;
    const response = await admin.call("DELETE", `/tokens/${token.publicId}`);
    expect(response.status).toBe(409);
    expect((await response.json()).error).toBe("This token has expired");
  });

  it("refuses a member (403), another organization's admin (404) and the signed-out (401)", async () => {
    const token = await (await create(admin)).json();
    expect((await member.call("DELETE", `/tokens/${token.publicId}`)).status).toBe(403);
    const outside = await outsider.call("DELETE", `/tokens/${token.publicId}`);
    expect(outside.status).toBe(404);
    expect((await outside.json()).error).toBe("Token not found");
    expect((await h.fetch(`/tokens/${token.publicId}`, { method: "DELETE" })).status).toBe(401);
    expect((await list(admin)).find((t) => t.publicId === token.publicId)?.revoked).toBe(false);
  });
});

describe("authenticateApiToken (the public API's check)", () => {
  it("refuses a missing, malformed or unknown token with 401", async () => {
    expect(await authenticateApiToken(h.deps, undefined, "chat")).toMatchObject({ ok: false, status: 401 });
    expect(await authenticateApiToken(h.deps, "Basic abc", "chat")).toMatchObject({ ok: false, status: 401 });
    expect(await authenticateApiToken(h.deps, "Bearer sk-nope", "chat")).toEqual({ ok: false, status: 401, error: "Invalid API token" });
  });

  it("refuses an expired token with 401 and a missing scope with 403", async () => {
    const token = await (await create(admin, { scopes: ["chat"], expiresAt: clock + DAY })).json();
    expect(await authenticateApiToken(h.deps, bearer(token.token), "images")).toEqual({
      ok: false,
      status: 403,
      error: "This API token does not have the 'images' scope",
    });
    clock += DAY;
    expect(await authenticateApiToken(h.deps, bearer(token.token), "chat")).toEqual({ ok: false, status: 401, error: "This API token has expired" });
  });

  it("records lastUsedAt when a token is used", async () => {
    const token = await (await create(admin)).json();
    expect((await list(admin)).find((t) => t.publicId === token.publicId)?.lastUsedAt).toBeNull();
    clock += 5_000;
    await authenticateApiToken(h.deps, bearer(token.token), "chat");
    expect((await list(admin)).find((t) => t.publicId === token.publicId)?.lastUsedAt).toBe(clock);
  });
});
