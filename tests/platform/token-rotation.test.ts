import { afterEach, describe, expect, it } from "vitest";
import type { ApiToken, CreatedApiToken } from "@contract/tokens";
import { TOKEN_CHANGED } from "@contract/tokens";
import type { Harness, Session } from "./harness";
import { createHarness, ORIGIN } from "./harness";

/** Issue 16: "Roll" gives a token a new secret, the old one working until the chosen grace period ends. */

let h: Harness;
let clock = Date.now();
afterEach(() => h?.close());

const HOUR = 3_600_000;

async function setup() {
  clock = Date.now();
  h = await createHarness({}, () => clock);
  const { admin, member, outsider } = await h.team();
  const token = (await (
    await admin.call("POST", "/tokens", { scopes: ["chat", "models:read"], expiresAt: null, rateLimitRpm: 600 })
  ).json()) as CreatedApiToken;
  return { admin, member, outsider, token };
}

const models = (secret: string) => h.fetch("/openai/v1/models", { headers: { authorization: `Bearer ${secret}` } });

async function chat(secret: string) {
  const response = await h.fetch("/openai/v1/chat/completions", {
    method: "POST",
    headers: { authorization: `Bearer ${secret}` },
    json: { model: "builtin", messages: [{ role: "user", content: "Say hello" }], stream: true },
  });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
}

async function usageRows(tokenId: number, expected: number) {
  let rows: unknown[] = [];
  for (let i = 0; i < 50; i++) {
    rows = await h.deps.db.selectFrom("chat_usage").select("id").where("token_id", "=", tokenId).execute();
    if (rows.length >= expected) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return rows.length;
}

const roll = (admin: Session, publicId: string, grace: string) => admin.call("POST", `/tokens/${publicId}/roll`, { grace });

describe("POST /tokens/{publicId}/roll", () => {
  it("keeps the token and its settings, shows the new secret once, and accepts both secrets during the grace period only", async () => {
    const { admin, member, token } = await setup();
    const response = await roll(admin, token.publicId, "1h");
    expect(response.status).toBe(200);
    const rolled = (await response.json()) as CreatedApiToken;
    expect(rolled.token).toMatch(/^sk-[A-Za-z0-9_-]{43}$/);
    expect(rolled.token).not.toBe(token.token);
    expect(rolled).toMatchObject({
      publicId: token.publicId,
      scopes: token.scopes,
      rateLimitRpm: 600,
      createdAt: token.createdAt,
      previousSecretExpiresAt: clock + HOUR,
    });

    // The list shows the grace period to everyone who sees tokens, never a secret.
    for (const who of [admin, member]) {
      const listed = ((await (await who.call("GET", "/tokens")).json()) as ApiToken[]).find((t) => t.publicId === token.publicId)!;
      expect(listed.previousSecretExpiresAt).toBe(clock + HOUR);
      expect(JSON.stringify(listed)).not.toContain("sk-");
    }

    expect((await models(rolled.token)).status).toBe(200);
    expect((await models(token.token)).status).toBe(200);
    clock += HOUR - 1;
    expect((await models(token.token)).status).toBe(200);
    clock += 1;
    expect((await models(token.token)).status).toBe(401);
    expect((await models(rolled.token)).status).toBe(200);
    const listed = ((await (await admin.call("GET", "/tokens")).json()) as ApiToken[]).find((t) => t.publicId === token.publicId)!;
    expect(listed.previousSecretExpiresAt).toBeUndefined();
  });

  it("with no grace, refuses the old secret at once", async () => {
    const { admin, token } = await setup();
    const rolled = (await (await roll(admin, token.publicId, "none")).json()) as CreatedApiToken;
    expect(rolled.previousSecretExpiresAt).toBeUndefined();
    expect((await models(token.token)).status).toBe(401);
    expect((await models(rolled.token)).status).toBe(200);
  });

  it("offers 1 hour, 24 hours and 7 days, and refuses anything else", async () => {
    const { admin, token } = await setup();
    for (const [grace, ms] of [
      ["24h", 24 * HOUR],
      ["7d", 7 * 24 * HOUR],
    ] as const) {
      const rolled = (await (await roll(admin, token.publicId, grace)).json()) as CreatedApiToken;
      expect(rolled.previousSecretExpiresAt).toBe(clock + ms);
    }
    for (const grace of ["2h", "", null, 3600]) expect((await roll(admin, token.publicId, grace as string)).status, String(grace)).toBe(400);
  });

  it("counts the old and the new secret's usage on the same token", async () => {
    const { admin, token } = await setup();
    const id = (await h.deps.db.selectFrom("api_tokens").select("id").where("public_id", "=", token.publicId).executeTakeFirstOrThrow()).id;
    const rolled = (await (await roll(admin, token.publicId, "24h")).json()) as CreatedApiToken;
    await chat(token.token);
    await chat(rolled.token);
    expect(await usageRows(id, 2)).toBe(2);
    const tokens = await h.deps.db.selectFrom("api_tokens").select(["id", "last_used_at"]).where("org_id", "=", admin.orgId).execute();
    expect(tokens.find((t) => t.id === id)?.last_used_at).not.toBeNull();
  });

  it("a second roll during the grace period ends the first secret's grace", async () => {
    const { admin, token } = await setup();
    const second = (await (await roll(admin, token.publicId, "24h")).json()) as CreatedApiToken;
    const third = (await (await roll(admin, token.publicId, "24h")).json()) as CreatedApiToken;
    expect((await models(token.token)).status).toBe(401);
    expect((await models(second.token)).status).toBe(200);
    expect((await models(third.token)).status).toBe(200);
  });

  it("a revoked token refuses both secrets, even during the grace period", async () => {
    const { admin, token } = await setup();
    const rolled = (await (await roll(admin, token.publicId, "7d")).json()) as CreatedApiToken;
    expect((await admin.call("DELETE", `/tokens/${token.publicId}`)).status).toBe(200);
    expect((await models(token.token)).status).toBe(401);
    expect((await models(rolled.token)).status).toBe(401);
    expect((await roll(admin, token.publicId, "1h")).status).toBe(409);
  });

  it("is for admins of the token's organization: members 403, others 404, the primary token is reset instead", async () => {
    const { admin, member, outsider, token } = await setup();
    expect((await roll(member, token.publicId, "1h")).status).toBe(403);
    expect((await roll(outsider, token.publicId, "1h")).status).toBe(404);
    expect((await roll(admin, "tok_nope", "1h")).status).toBe(404);
    const primary = ((await (await admin.call("GET", "/tokens")).json()) as ApiToken[]).find((t) => t.primary)!;
    expect((await roll(admin, primary.publicId, "1h")).status).toBe(409);
    expect((await models(token.token)).status).toBe(200);
  });

  it("an expired token can't be rolled", async () => {
    clock = Date.now();
    h = await createHarness({}, () => clock);
    const admin = await h.admin();
    const token = (await (await admin.call("POST", "/tokens", { scopes: ["models:read"], expiresAt: clock + HOUR })).json()) as CreatedApiToken;
    clock += 2 * HOUR;
    expect((await roll(admin, token.publicId, "1h")).status).toBe(409);
  });
});

describe("changes made from a version of the token (decision 0139)", () => {
  it("two rolls at once from the same version: one is refused, and the secret in use keeps its grace", async () => {
    const { admin, token } = await setup();
    const from = (c: Session, version: string | undefined) => c.call("POST", `/tokens/${token.publicId}/roll`, { grace: "24h", version });
    const [first, second] = await Promise.all([from(admin, token.version), from(admin, token.version)]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const refused = first.status === 409 ? first : second;
    expect((await refused.json()).error).toBe(TOKEN_CHANGED);
    expect((await models(token.token)).status).toBe(200);
    // Rolled again from the version now shown: deliberate, and it goes through.
    const now = ((await (await admin.call("GET", "/tokens")).json()) as ApiToken[]).find((t) => t.publicId === token.publicId)!;
    expect((await from(admin, now.version)).status).toBe(200);
  });

  it("a settings save from an older version is refused and the newer save is kept; without a version it applies as before", async () => {
    const { admin, token } = await setup();
    const save = (json: object) => admin.call("PUT", `/tokens/${token.publicId}`, { budget: null, allowedModels: null, rateLimitRpm: null, ...json });
    expect((await save({ budget: { amount: 5, period: "month" }, version: token.version })).status).toBe(200);
    const stale = await save({ rateLimitRpm: 10, version: token.version });
    expect(stale.status).toBe(409);
    expect((await stale.json()).error).toBe(TOKEN_CHANGED);
    const kept = ((await (await admin.call("GET", "/tokens")).json()) as ApiToken[]).find((t) => t.publicId === token.publicId)!;
    expect({ budget: kept.budget?.amount, rpm: kept.rateLimitRpm }).toEqual({ budget: 5, rpm: null });
    expect((await save({ rateLimitRpm: 10 })).status).toBe(200);
  });

  it("two resets of the organization token at once: one is refused, so no admin is shown a secret that never works", async () => {
    const { admin } = await setup();
    const primary = ((await (await admin.call("GET", "/tokens")).json()) as ApiToken[]).find((t) => t.primary)!;
    const reset = () => admin.call("POST", "/organizations/reset-token", { version: primary.version });
    const answers = await Promise.all([reset(), reset()]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const { token: secret } = (await answers.find((a) => a.status === 200)!.json()) as CreatedApiToken;
    expect((await models(secret)).status).toBe(200);
    // The console's call without a body (a platform client of the earlier contract) still resets, as does
    // a client's JSON header with an empty body; a body that is not JSON is refused.
    expect((await admin.call("POST", "/organizations/reset-token")).status).toBe(200);
    const empty = (body: string) =>
      h.fetch("/organizations/reset-token", { method: "POST", cookie: admin.cookie, body, headers: { origin: ORIGIN, "content-type": "application/json" } });
    expect((await empty("")).status).toBe(200);
    expect((await empty("null")).status).toBe(200);
    expect((await empty("{")).status).toBe(400);
  });
});
