import { afterEach, describe, expect, it } from "vitest";
import type { Harness } from "./harness";
import { createHarness, ORIGIN } from "./harness";

/**
 * What /api/v1 reads from a client, to the letter (decision 0140): ids and limits as written (digits in
 * a URL, a JSON number in a body), a body only as JSON, and a refusal naming the field at fault.
 */

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const NOT_JSON = { error: "Send a JSON body with Content-Type: application/json" };

describe("an id or a limit written other than as a number", () => {
  it("to switch to, in a JSON body: a string, an array or a boolean is refused 400 and nothing changes", async () => {
    h = await createHarness();
    const admin = await h.admin("Acme");
    const beta = (await (await admin.call("POST", "/organizations", { name: "Beta" })).json()) as { id: number };
    const active = async () => (await (await admin.call("GET", "/auth/session")).json()).activeOrganization.id;
    expect(await active()).toBe(beta.id);
    for (const organizationId of [String(admin.orgId), `0x${admin.orgId.toString(16)}`, [admin.orgId], true]) {
      const r = await admin.call("POST", "/auth/switch", { organizationId });
      expect([organizationId, r.status]).toEqual([organizationId, 400]);
      expect(await r.json()).toMatchObject({ fields: { organizationId: expect.any(String) } });
      expect(await active()).toBe(beta.id);
    }
    expect((await admin.call("POST", "/auth/switch", { organizationId: admin.orgId })).status).toBe(200);
    expect(await active()).toBe(admin.orgId);
  });

  it("in a path: only digits name a thing; 0x3, 3.0, 3e0 and ' 3' are not found", async () => {
    h = await createHarness();
    const operator = await h.signIn("Operator", "operator@example.test"); // the first user: a system admin
    const { admin, member } = await h.team();
    const memberId = member.userId;
    const invite = (await (await admin.call("POST", "/organizations/invites", { status: "multi-use" })).json()) as { code: string };
    const invites = (await (await admin.call("GET", "/organizations/invites")).json()) as { id: number; code: string }[];
    const inviteId = invites.find((i) => i.code === invite.code)!.id;
    const spellings = (id: number) => [`0x${id.toString(16)}`, `${id}.0`, `${id}e0`, `%20${id}`, `${id}%20`, `+${id}`];
    for (const id of spellings(admin.orgId)) {
      for (const [method, url, body] of [
        ["GET", `/system/organizations/${id}`, undefined],
        ["PUT", `/system/organizations/${id}`, { name: "Renamed" }],
        ["POST", `/system/organizations/${id}/credits`, { amount: 1, reason: "why" }],
      ] as const) {
        const r = await operator.call(method, url, body);
        expect({ url, method, status: r.status, body: await r.json() }).toEqual({ url, method, status: 404, body: { error: "Organization not found" } });
      }
    }
    for (const id of spellings(memberId)) {
      for (const method of ["GET", "PUT"] as const) {
        const r = await admin.call(method, `/organizations/members/${id}`, method === "PUT" ? { role: "admin" } : undefined);
        expect({ id, method, status: r.status, body: await r.json() }).toEqual({ id, method, status: 404, body: { error: "Member not found" } });
      }
    }
    for (const id of spellings(inviteId)) {
      const r = await admin.call("DELETE", `/organizations/invites/${id}`);
      expect({ id, status: r.status }).toEqual({ id, status: 404 });
    }
    // Nothing was changed, and the digits still name each.
    const org = await (await operator.call("GET", `/system/organizations/${admin.orgId}`)).json();
    expect(org).toMatchObject({ id: admin.orgId, name: "Acme", balance: 0 });
    expect((await (await admin.call("GET", `/organizations/members/${memberId}`)).json()).role).toBe("member");
    expect((await admin.call("GET", `/organizations/invites?before=${inviteId + 1}`)).status).toBe(200);
  });

  it("in a query: a limit, a cursor or a filter in hex, exponent, decimal or with spaces is refused 400", async () => {
    h = await createHarness();
    const operator = await h.signIn("Operator", "operator@example.test");
    const { admin, member } = await h.team();
    const lists = [
      [admin, "/billing/ledger"],
      [admin, "/organizations/members"],
      [admin, "/organizations/invites"],
      [admin, "/audit"],
      [operator, "/system/organizations"],
      [operator, "/system/audit"],
    ] as const;
    for (const [who, url] of lists) {
      for (const limit of ["0x10", "1e1", "10.0", "%2010", "-5", ""]) {
        const r = await who.call("GET", `${url}?limit=${limit}`);
        expect({ url, limit, status: r.status }).toEqual({ url, limit, status: 400 });
      }
      expect((await who.call("GET", `${url}?limit=10`)).status).toBe(200);
      expect({ url, before: (await who.call("GET", `${url}?before=0x10`)).status }).toEqual({ url, before: 400 });
    }
    for (const url of ["/billing/ledger", "/organizations/members", "/organizations/invites"]) {
      expect({ url, after: (await admin.call("GET", `${url}?after=1e0`)).status }).toEqual({ url, after: 400 });
    }
    for (const query of [`/system/audit?organization=0x${admin.orgId.toString(16)}`, `/system/audit?organization=${admin.orgId}.0`]) {
      expect({ query, status: (await operator.call("GET", query)).status }).toEqual({ query, status: 400 });
    }
    const usage = await admin.call("GET", `/usage?member=0x${member.userId.toString(16)}`);
    expect([usage.status, await usage.json()]).toEqual([400, { error: "member: must be a member id" }]);
    expect((await admin.call("GET", `/usage?member=${member.userId}`)).status).toBe(200);
    // Instants and counts of days too.
    for (const query of ["/audit?from=1e12", "/audit?to=0x10", "/audit?from=1.5", "/models/builtin/history?days=0x7", "/models/builtin/history?days=7.0"]) {
      expect({ query, status: (await admin.call("GET", query)).status }).toEqual({ query, status: 400 });
    }
    expect((await admin.call("GET", `/audit?from=${Date.UTC(2026, 0, 1)}&to=${Date.UTC(2027, 0, 1)}`)).status).toBe(200);
    expect((await admin.call("GET", "/models/builtin/history?days=7")).status).toBe(200);
    expect((await admin.call("GET", "/models/builtin/history")).status).toBe(200);
  });

  it("the ledger's limit is bounded as the other lists' are: 201 is refused, not capped", async () => {
    h = await createHarness();
    const admin = await h.admin("Acme");
    for (const limit of ["201", "100000"]) {
      const r = await admin.call("GET", `/billing/ledger?limit=${limit}`);
      expect([limit, r.status]).toEqual([limit, 400]);
      expect((await r.json()).error).toMatch(/^limit: /);
    }
    expect((await admin.call("GET", "/billing/ledger?limit=200")).status).toBe(200);
    expect((await admin.call("GET", "/billing/ledger?limit=1")).status).toBe(200);
  });
});

describe("a body that is not JSON", () => {
  const send = (cookie: string, path: string, body: string, type?: string) =>
    h!.fetch(path, { method: "POST", cookie, body, headers: { origin: ORIGIN, ...(type ? { "content-type": type } : {}) } });

  it("is refused 415, naming no field, whatever the call", async () => {
    h = await createHarness();
    const admin = await h.admin("Acme");
    for (const [path, body, type] of [
      ["/organizations", '{"name":"X"}', "text/plain"],
      ["/organizations", "name=X", "application/x-www-form-urlencoded"],
      ["/organizations", '{"name":"X"}', undefined],
      ["/organizations", '{"name":"X"}', "application/jsonp"],
      ["/billing/add-funds", "amount=20", "application/x-www-form-urlencoded"],
      ["/organizations/reset-token", "{}", "text/plain"],
    ] as const) {
      const r = await send(admin.cookie, path, body, type);
      expect({ path, type, status: r.status, body: await r.json() }).toEqual({ path, type, status: 415, body: NOT_JSON });
    }
    const orgs = (await (await admin.call("GET", "/auth/session")).json()).organizations;
    expect(orgs.map((o: { name: string }) => o.name)).not.toContain("X");
  });

  it("JSON with parameters or as a +json type is read; no body at all is left to the call, as before", async () => {
    h = await createHarness();
    const admin = await h.admin("Acme");
    expect((await send(admin.cookie, "/organizations", '{"name":"Charset"}', "application/json; charset=utf-8")).status).toBe(201);
    expect((await send(admin.cookie, "/organizations", '{"name":"Plus"}', "application/merge-patch+json")).status).toBe(201);
    expect((await send(admin.cookie, "/organizations", '{"name":"Caps"}', "Application/JSON")).status).toBe(201);
    // The reset's body is optional: none, or none with any type, still resets.
    expect((await admin.call("POST", "/organizations/reset-token")).status).toBe(200);
    expect((await send(admin.cookie, "/organizations/reset-token", "", "text/plain")).status).toBe(200);
    // A call whose body is required but missing is still refused by its field.
    const missing = await admin.call("POST", "/organizations");
    expect([missing.status, await missing.json()]).toEqual([400, { error: "name: Required", fields: { name: "Required" } }]);
  });
});

describe("a refusal where one field is at fault names it", () => {
  it("a new token's unknown scope or past expiry, and the reset's version", async () => {
    h = await createHarness();
    const admin = await h.admin("Acme");
    const scope = await admin.call("POST", "/tokens", { scopes: ["nope"], expiresAt: null });
    expect([scope.status, await scope.json()]).toEqual([400, { error: "Unknown scope: nope", fields: { scopes: "Unknown scope: nope" } }]);
    const past = await admin.call("POST", "/tokens", { scopes: [], expiresAt: 1000 });
    const pastMessage = "The expiry must be in the future";
    expect([past.status, await past.json()]).toEqual([400, { error: pastMessage, fields: { expiresAt: pastMessage } }]);
    const far = await admin.call("POST", "/tokens", { scopes: [], expiresAt: Date.now() + 20 * 365 * 86_400_000 });
    const farMessage = "The expiry must be at most 10 years ahead";
    expect([far.status, await far.json()]).toEqual([400, { error: farMessage, fields: { expiresAt: farMessage } }]);
    const reset = await admin.call("POST", "/organizations/reset-token", { version: 5 });
    expect([reset.status, await reset.json()]).toEqual([
      400,
      { error: "version: Expected string, received number", fields: { version: "Expected string, received number" } },
    ]);
  });
});

describe("a wrong method on a sign-in word", () => {
  it("is a route not found, as any other", async () => {
    h = await createHarness();
    for (const path of ["/auth/logout", "/auth/switch", "/auth/session/x", "/auth/nope", "/auth/nope/callback"]) {
      const r = await h.fetch(path);
      expect({ path, status: r.status, body: await r.json() }).toEqual({ path, status: 404, body: { error: "Not found" } });
    }
    // The providers still start a sign-in.
    expect((await h.fetch("/auth/google")).status).toBe(302);
    expect((await h.fetch("/auth/github")).status).toBe(302);
  });
});
