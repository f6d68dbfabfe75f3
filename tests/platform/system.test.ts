import { afterEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import type { ErrorBody } from "@contract/errors";
import {
  API_KEY_FOR_NEW_BASE_URL,
  API_KEY_RULE,
  BASE_URL_CREDENTIALS,
  BASE_URL_QUERY,
  BASE_URL_REQUIRED,
  BASE_URL_RULE,
  MODEL_NAME_RULE,
  MODEL_CHANGED,
  MODEL_NAME_TAKEN,
} from "@contract/models";
import type { ModelConfigList } from "@contract/models";
import { ORGANIZATION_PAGE_MAX } from "@contract/system";
import { MODEL_GONE, saveModel } from "../../platform/models/service";
import type { Harness, Session } from "./harness";
import { createHarness } from "./harness";

let h: Harness;
afterEach(async () => {
  await h?.close();
});

/** The four callers of DESIGN §8's role matrix, on a fresh platform. */
async function cast() {
  h = await createHarness();
  const operator = await h.signIn("Operator", "operator@example.test"); // the first user ever: system admin
  const member = await h.signIn("Helper", "helper@example.test");
  await h.deps.db.insertInto("memberships").values({ org_id: 1, user_id: member.userId, role: "member", created_at: Date.now() }).execute();
  await h.deps.db.updateTable("sessions").set({ active_org_id: 1 }).where("user_id", "=", member.userId).execute();
  const outsider = await h.admin("Acme");
  return { operator, member, outsider };
}

const statusOf = async (who: Session | null, method: string, path: string, json?: unknown) =>
  (who ? await who.call(method, path, json) : await h.fetch(path, { method, json })).status;

describe("GET /system/models", () => {
  it("lists the editable record of every model, never the api key", async () => {
    const { operator } = await cast();
    await saveModel(h.deps, {
      name: "qwen",
      displayName: "Qwen",
      provider: "vllm",
      contextSize: 32768,
      baseUrl: "http://upstream.test/v1/",
      apiKey: "sk-upstream-secret",
      upstreamModel: "Qwen/Qwen3",
      rateCard: { id: "rc-qwen", inputPerMillion: 0.5, outputPerMillion: 1.5 },
      status: "maintenance",
    });
    const response = await operator.call("GET", "/system/models");
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain("sk-upstream-secret");
    const { data } = JSON.parse(text);
    expect(data).toEqual([
      {
        name: "builtin",
        displayName: "Built-in development model",
        provider: "builtin",
        contextSize: 8192,
        baseUrl: null,
        upstreamModel: "builtin",
        hasApiKey: false,
        rateCard: null,
        status: null,
        version: expect.any(String),
      },
      {
        name: "qwen",
        displayName: "Qwen",
        provider: "vllm",
        contextSize: 32768,
        baseUrl: "http://upstream.test/v1",
        upstreamModel: "Qwen/Qwen3",
        hasApiKey: true,
        rateCard: { id: "rc-qwen", inputPerMillion: 0.5, outputPerMillion: 1.5 },
        status: "maintenance",
        version: expect.any(String),
      },
    ]);
  });

  it("is for members of the system organization only", async () => {
    const { operator, member, outsider } = await cast();
    expect(await statusOf(operator, "GET", "/system/models")).toBe(200);
    expect(await statusOf(member, "GET", "/system/models")).toBe(200);
    expect(await statusOf(outsider, "GET", "/system/models")).toBe(403);
    expect(await statusOf(null, "GET", "/system/models")).toBe(401);
  });
});

describe("PUT /models/{name} from the model editor", () => {
  it("keeps the api key when none is sent, and removes it on null", async () => {
    const { operator } = await cast();
    const body = { displayName: "Up", provider: "vllm", contextSize: 4096, baseUrl: "http://upstream.test/v1", apiKey: "sk-first" };
    expect((await operator.call("PUT", "/models/up", body)).status).toBe(200);
    const { apiKey: _dropped, ...withoutKey } = body;
    expect((await operator.call("PUT", "/models/up", { ...withoutKey, displayName: "Up again" })).status).toBe(200);
    const row = await h.deps.db.selectFrom("models").selectAll().where("name", "=", "up").executeTakeFirstOrThrow();
    expect(row).toMatchObject({ display_name: "Up again", api_key: "sk-first" });
    expect((await operator.call("PUT", "/models/up", { ...withoutKey, apiKey: null })).status).toBe(200);
    const { data } = await (await operator.call("GET", "/system/models")).json();
    expect(data.find((m: { name: string }) => m.name === "up").hasApiKey).toBe(false);
  });

  it("keeps the api key only on the same host: a new base URL needs it typed again, or removed", async () => {
    const { operator } = await cast();
    const body = { displayName: "Up", provider: "vllm", contextSize: 4096, baseUrl: "http://upstream.test/v1", apiKey: "sk-first" };
    expect((await operator.call("PUT", "/models/up", body)).status).toBe(200);
    const { apiKey: _dropped, ...withoutKey } = body;
    // A trailing slash is the same URL.
    expect((await operator.call("PUT", "/models/up", { ...withoutKey, baseUrl: "http://upstream.test/v1/" })).status).toBe(200);
    const elsewhere = { ...withoutKey, baseUrl: "http://collector.example/v1" };
    const refused = await operator.call("PUT", "/models/up", elsewhere);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as ErrorBody).fields).toEqual({ apiKey: API_KEY_FOR_NEW_BASE_URL });
    const kept = () => h.deps.db.selectFrom("models").select(["base_url", "api_key"]).where("name", "=", "up").executeTakeFirstOrThrow();
    expect(await kept()).toEqual({ base_url: "http://upstream.test/v1", api_key: "sk-first" });
    expect((await operator.call("PUT", "/models/up", { ...elsewhere, apiKey: "sk-second" })).status).toBe(200);
    expect(await kept()).toEqual({ base_url: "http://collector.example/v1", api_key: "sk-second" });
    expect((await operator.call("PUT", "/models/up", { ...withoutKey, apiKey: null })).status).toBe(200);
    expect((await operator.call("PUT", "/models/up", withoutKey)).status).toBe(200);
  });

  it("names each refused field by the editor's form field (the contract's fields)", async () => {
    const { operator } = await cast();
    const refusal = async (path: string, json: unknown) => {
      const response = await operator.call("PUT", path, json);
      return { status: response.status, ...((await response.json()) as ErrorBody) };
    };
    const upstream = { displayName: "Up", provider: "vllm", contextSize: 4096 };
    expect(await refusal("/models/up", upstream)).toMatchObject({ status: 400, fields: { baseUrl: BASE_URL_REQUIRED } });
    const priced = { ...upstream, baseUrl: "http://upstream.test/v1", rateCard: { id: "", inputPerMillion: -1, outputPerMillion: 2 } };
    const { fields } = await refusal("/models/up", priced);
    expect(Object.keys(fields ?? {}).sort()).toEqual(["inputPerMillion", "rateCardId"]);
    expect(await refusal("/models/bad name", { ...upstream, baseUrl: "http://upstream.test/v1" })).toMatchObject({
      status: 400,
      fields: { name: MODEL_NAME_RULE },
    });
  });

  it("takes only an http(s) base URL without credentials, query or fragment, and a key without line breaks, by field", async () => {
    const { operator } = await cast();
    const body = { displayName: "Up", provider: "vllm", contextSize: 4096, baseUrl: "http://upstream.test/v1" };
    const refusal = async (json: unknown) => {
      const response = await operator.call("PUT", "/models/up", json);
      return { status: response.status, fields: ((await response.json()) as ErrorBody).fields };
    };
    for (const baseUrl of ["file:///etc", "javascript:alert(1)", "ftp://x/v1", "mailto:a@b", "http:/x", "http://h/v 1", "http://h/v\n1", "data:,x"])
      expect(await refusal({ ...body, baseUrl }), baseUrl).toEqual({ status: 400, fields: { baseUrl: BASE_URL_RULE } });
    for (const baseUrl of ["http://u:p@upstream.test/v1", "https://sk-secret@upstream.test/v1"])
      expect(await refusal({ ...body, baseUrl }), baseUrl).toEqual({ status: 400, fields: { baseUrl: BASE_URL_CREDENTIALS } });
    for (const baseUrl of ["http://upstream.test/v1?x=1", "http://upstream.test/v1#top", "http://upstream.test/v1?"])
      expect(await refusal({ ...body, baseUrl }), baseUrl).toEqual({ status: 400, fields: { baseUrl: BASE_URL_QUERY } });
    for (const apiKey of ["sk-a\r\nX-Evil: 1", "sk-a\nb", "sk-\u0000", "sk-ключ"])
      expect(await refusal({ ...body, apiKey }), JSON.stringify(apiKey)).toEqual({ status: 400, fields: { apiKey: API_KEY_RULE } });
    expect(await h.deps.db.selectFrom("models").select("name").where("name", "=", "up").execute()).toEqual([]);
    expect((await operator.call("PUT", "/models/up", { ...body, baseUrl: "HTTPS://upstream.test:8443/v1/", apiKey: "sk-ok_1.2" })).status).toBe(200);
  });

  it("answers an edit of a model another admin deleted 404, and writes nothing (decision 0126)", async () => {
    const { operator } = await cast();
    const body = { displayName: "Old", provider: "vllm", contextSize: 4096, baseUrl: "http://upstream.test/v1", apiKey: "sk-abc" };
    expect((await operator.call("PUT", "/models/old", { ...body, mode: "add" })).status).toBe(200);
    expect((await operator.call("DELETE", "/models/old")).status).toBe(200);
    const { apiKey: _key, ...staleForm } = body;
    const stale = await operator.call("PUT", "/models/old", { ...staleForm, displayName: "Old edited", mode: "edit" });
    expect(stale.status).toBe(404);
    expect(((await stale.json()) as ErrorBody).error).toBe(MODEL_GONE);
    expect(await h.deps.db.selectFrom("models").select("name").where("name", "=", "old").execute()).toEqual([]);
    // An edit of a model that is there is an edit.
    expect((await operator.call("PUT", "/models/builtin", { displayName: "Dev", provider: "builtin", contextSize: 4096, mode: "edit" })).status).toBe(200);
  });

  it("refuses an edit made from a version another save replaced 409, writing nothing; the version it read saves (decision 0138)", async () => {
    const { operator } = await cast();
    const body = { displayName: "Priced", provider: "vllm", contextSize: 4096, baseUrl: "http://upstream.test/v1", mode: "add" };
    expect((await operator.call("PUT", "/models/priced", body)).status).toBe(200);
    const read = async () => ((await (await operator.call("GET", "/system/models")).json()) as ModelConfigList).data.find((m) => m.name === "priced")!;
    const opened = (await read()).version!;
    expect(opened).toMatch(/^[\w-]{22}$/);
    // Another admin reprices it; the first admin's form still holds the version it was opened with.
    const rateCard = { id: "rc", inputPerMillion: 2, outputPerMillion: 4 };
    expect((await operator.call("PUT", "/models/priced", { ...body, mode: "edit", version: opened, rateCard })).status).toBe(200);
    const stale = await operator.call("PUT", "/models/priced", { ...body, displayName: "Renamed", mode: "edit", version: opened });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as ErrorBody).error).toBe(MODEL_CHANGED);
    const now = await read();
    expect(now).toMatchObject({ displayName: "Priced", rateCard });
    expect(now.version).not.toBe(opened);
    // Saved again from what it reads now: taken. A save that changes nothing keeps the version.
    expect((await operator.call("PUT", "/models/priced", { ...body, displayName: "Renamed", rateCard, mode: "edit", version: now.version })).status).toBe(200);
    const renamed = await read();
    expect(renamed.displayName).toBe("Renamed");
    expect((await operator.call("PUT", "/models/priced", { ...body, displayName: "Renamed", rateCard, mode: "edit", version: renamed.version })).status).toBe(
      200,
    );
    expect((await read()).version).toBe(renamed.version);
  });

  it("refuses an add under a name that is taken 409 on the name field, even two adds at once, keeping the first", async () => {
    const { operator } = await cast();
    const body = (displayName: string) => ({ displayName, provider: "vllm", contextSize: 4096, baseUrl: "http://upstream.test/v1", mode: "add" });
    const answers = await Promise.all([operator.call("PUT", "/models/twin", body("First")), operator.call("PUT", "/models/twin", body("Second"))]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    expect(((await refused.json()) as ErrorBody).fields).toEqual({ name: MODEL_NAME_TAKEN });
    const [row] = await h.deps.db.selectFrom("models").select("display_name").where("name", "=", "twin").execute();
    expect(answers[0].status === 200 ? "First" : "Second").toBe(row.display_name);
    expect((await operator.call("PUT", "/models/twin", body("Third"))).status).toBe(409);
    expect((await h.deps.db.selectFrom("models").select("display_name").where("name", "=", "twin").executeTakeFirstOrThrow()).display_name).toBe(
      row.display_name,
    );
    // Without a mode the PUT creates or replaces, as before.
    const { mode: _mode, ...plain } = body("Replaced");
    expect((await operator.call("PUT", "/models/twin", plain)).status).toBe(200);
    expect((await operator.call("PUT", "/models/fresh", plain)).status).toBe(200);
  });

  it("is refused to a member of the system organization", async () => {
    const { member } = await cast();
    const body = { displayName: "Up", provider: "builtin", contextSize: 4096 };
    expect(await statusOf(member, "PUT", "/models/up", body)).toBe(403);
    expect(await statusOf(member, "DELETE", "/models/builtin")).toBe(403);
  });
});

describe("GET /system/organizations", () => {
  it("lists every organization with its member count, payment mode and balance", async () => {
    const { operator, outsider } = await cast();
    await h.deps.db
      .updateTable("billing_accounts")
      .set({ balance_micros: 12_340_000, payment_mode: "auto", updated_at: Date.now() })
      .where("org_id", "=", outsider.orgId)
      .execute();
    const response = await operator.call("GET", "/system/organizations");
    expect(response.status).toBe(200);
    const { data } = await response.json();
    expect(
      data.map((o: Record<string, unknown>) => ({ id: o.id, name: o.name, memberCount: o.memberCount, paymentMode: o.paymentMode, balance: o.balance })),
    ).toEqual([
      { id: outsider.orgId, name: "Acme", memberCount: 1, paymentMode: "auto", balance: 12.34 },
      { id: 1, name: "System", memberCount: 2, paymentMode: "manual", balance: 0 },
    ]);
    expect(new Date(data[1].createdAt).toISOString()).toBe(data[1].createdAt);
  });

  it("finds organizations by part of the name in any case, or by id, and pages them newest first", async () => {
    const { operator, outsider } = await cast();
    const ids = [outsider.orgId];
    for (const name of ["Acme Labs", "Beta 100%", "beta_two", "Gamma"]) ids.push((await h.admin(name)).orgId);
    const names = async (query: string) => {
      const response = await operator.call("GET", `/system/organizations${query}`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data: { id: number; name: string }[]; nextBefore: number | null };
      return { names: body.data.map((o) => o.name), nextBefore: body.nextBefore };
    };
    expect(await names("?q=ACME")).toEqual({ names: ["Acme Labs", "Acme"], nextBefore: null });
    // % and _ are the typed characters, not patterns.
    expect(await names(`?q=${encodeURIComponent("100%")}`)).toEqual({ names: ["Beta 100%"], nextBefore: null });
    expect(await names("?q=a_t")).toEqual({ names: ["beta_two"], nextBefore: null });
    expect(await names(`?q=${ids[4]}`)).toEqual({ names: ["Gamma"], nextBefore: null });
    expect(ids[4]).toBeLessThan(10); // no name holds its digit
    expect(await names("?q=nothing-like-it")).toEqual({ names: [], nextBefore: null });

    const first = await names("?limit=2");
    expect(first.names).toEqual(["Gamma", "beta_two"]);
    const second = await names(`?limit=2&before=${first.nextBefore}`);
    expect(second.names).toEqual(["Beta 100%", "Acme Labs"]);
    expect(await names(`?limit=2&before=${second.nextBefore}`)).toEqual({ names: ["Acme", "System"], nextBefore: null });
    const beta = await names("?q=beta&limit=1");
    expect(beta.names).toEqual(["beta_two"]);
    expect(await names(`?q=beta&limit=1&before=${beta.nextBefore}`)).toEqual({ names: ["Beta 100%"], nextBefore: null });

    // A number: the organization with that id first, then the names that hold it, paged alike.
    const digits = [];
    for (const name of ["Team 1", "Team 10"]) digits.push((await h.admin(name)).orgId);
    expect(await names("?q=1")).toEqual({ names: ["System", "Team 10", "Team 1", "Beta 100%"], nextBefore: null });
    const firstOfOne = await names("?q=1&limit=2");
    expect(firstOfOne.names).toEqual(["System", "Team 10"]);
    expect(await names(`?q=1&limit=2&before=${firstOfOne.nextBefore}`)).toEqual({ names: ["Team 1", "Beta 100%"], nextBefore: null });
    const onlyTheId = await names("?q=1&limit=1");
    expect(onlyTheId.names).toEqual(["System"]);
    expect((await names(`?q=1&limit=1&before=${onlyTheId.nextBefore}`)).names).toEqual(["Team 10"]);

    expect((await operator.call("GET", "/system/organizations?limit=0")).status).toBe(400);
    expect((await operator.call("GET", `/system/organizations?limit=${ORGANIZATION_PAGE_MAX + 1}`)).status).toBe(400);
  });

  it("finds a name with non-ASCII capitals as typed or in any case, the same on SQLite and PostgreSQL", async () => {
    const { operator, outsider } = await cast();
    await h.admin("Élan Vital");
    await h.admin("ÖKO Werk");
    const names = async (q: string) => {
      const response = await operator.call("GET", `/system/organizations?q=${encodeURIComponent(q)}`);
      expect(response.status).toBe(200);
      return ((await response.json()) as { data: { name: string }[] }).data.map((o) => o.name);
    };
    for (const q of ["Élan", "élan", "ÉLAN", "E\u0301lan", "vital"]) expect(await names(q), q).toEqual(["Élan Vital"]);
    for (const q of ["öko", "ÖKO", "Öko w"]) expect(await names(q), q).toEqual(["ÖKO Werk"]);
    // The system organization was made before names were folded for the search: found all the same.
    expect(await names("SYSTEM")).toEqual(["System"]);
    // A rename in the editor is found by its new name, no longer by the old one.
    expect((await operator.call("PUT", `/system/organizations/${outsider.orgId}`, { name: "Ärzte Ohne Grenzen" })).status).toBe(200);
    expect(await names("ärzte")).toEqual(["Ärzte Ohne Grenzen"]);
    expect(await names("acme")).toEqual([]);
  });

  it("finds an organization an older build created or renamed during a rolling upgrade by its name", async () => {
    const { operator, outsider } = await cast();
    const names = async (q: string) => {
      const response = await operator.call("GET", `/system/organizations?q=${encodeURIComponent(q)}`);
      expect(response.status).toBe(200);
      return ((await response.json()) as { data: { name: string }[] }).data.map((o) => o.name);
    };
    // An older build knows no name_search: its insert leaves the column's default, its rename leaves it as it was.
    await sql`insert into organizations (name, created_at) values (${"Zeta Rolling"}, ${Date.now()})`.execute(h.deps.db);
    await h.deps.db.updateTable("organizations").set({ name: "Omega Renamed" }).where("id", "=", outsider.orgId).execute();
    expect(await names("zeta")).toEqual(["Zeta Rolling"]);
    expect(await names("ZETA rolling")).toEqual(["Zeta Rolling"]);
    expect(await names("omega")).toEqual(["Omega Renamed"]);
  });

  it("answers one page without a limit, however many organizations there are", async () => {
    const { operator } = await cast();
    const now = Date.now();
    await h.deps.db
      .insertInto("organizations")
      .values(Array.from({ length: ORGANIZATION_PAGE_MAX }, (_, i) => ({ name: `Filler ${i}`, name_search: `filler ${i}`, created_at: now })))
      .execute();
    const first = await operator.call("GET", "/system/organizations");
    expect(first.status).toBe(200);
    const page = (await first.json()) as { data: { name: string }[]; nextBefore: number | null };
    expect(page.data).toHaveLength(ORGANIZATION_PAGE_MAX);
    expect(page.data[0].name).toBe(`Filler ${ORGANIZATION_PAGE_MAX - 1}`);
    const rest = (await (await operator.call("GET", `/system/organizations?before=${page.nextBefore}`)).json()) as typeof page;
    expect(rest.data.map((o) => o.name)).toEqual(["Acme", "System"]);
    expect(rest.nextBefore).toBeNull();
    expect((await operator.call("GET", `/system/organizations?q=${"x".repeat(101)}`)).status).toBe(400);
  });

  it("is for members of the system organization only", async () => {
    const { operator, member, outsider } = await cast();
    expect(await statusOf(operator, "GET", "/system/organizations")).toBe(200);
    expect(await statusOf(member, "GET", "/system/organizations")).toBe(200);
    expect(await statusOf(outsider, "GET", "/system/organizations")).toBe(403);
    expect(await statusOf(null, "GET", "/system/organizations")).toBe(401);
    expect(await statusOf(operator, "GET", `/system/organizations/${outsider.orgId}`)).toBe(200);
    expect(await statusOf(outsider, "GET", `/system/organizations/${outsider.orgId}`)).toBe(403);
    expect(await statusOf(operator, "GET", "/system/organizations/999")).toBe(404);
  });
});

describe("PUT /system/organizations/{id}", () => {
  it("renames an organization and sets its payment mode through the billing service", async () => {
    const { operator, outsider } = await cast();
    const renamed = await operator.call("PUT", `/system/organizations/${outsider.orgId}`, { name: "  Acme Corp  " });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ id: outsider.orgId, name: "Acme Corp", paymentMode: "manual" });
    const invoiced = await operator.call("PUT", `/system/organizations/${outsider.orgId}`, { paymentMode: "invoice" });
    expect(await invoiced.json()).toMatchObject({ name: "Acme Corp", paymentMode: "invoice" });
    // The organization's own admin sees the change.
    expect(await (await outsider.call("GET", "/billing/config")).json()).toMatchObject({ paymentMode: "invoice" });
    const both = await operator.call("PUT", `/system/organizations/${outsider.orgId}`, { name: "Acme", paymentMode: "auto" });
    expect(await both.json()).toMatchObject({ name: "Acme", paymentMode: "auto" });
  });

  it("is for admins of the system organization only", async () => {
    const { operator, member, outsider } = await cast();
    const path = `/system/organizations/${outsider.orgId}`;
    expect(await statusOf(null, "PUT", path, { name: "X" })).toBe(401);
    expect(await statusOf(outsider, "PUT", path, { name: "X" })).toBe(403);
    expect(await statusOf(member, "PUT", path, { name: "X" })).toBe(403);
    expect(await statusOf(operator, "PUT", path, { name: "X" })).toBe(200);
  });

  it("refuses bad input and unknown organizations", async () => {
    const { operator, outsider } = await cast();
    const path = `/system/organizations/${outsider.orgId}`;
    const refused = async (json: unknown) => {
      const response = await operator.call("PUT", path, json);
      return { status: response.status, error: (await response.json()).error };
    };
    expect(await refused({ name: "   " })).toEqual({ status: 400, error: "name: Organization name is required" });
    expect(await refused({ name: "x".repeat(101) })).toEqual({ status: 400, error: "name: Organization name must be at most 100 characters" });
    expect((await refused({ paymentMode: "free" })).status).toBe(400);
    expect(await refused({})).toEqual({ status: 400, error: "Send a name or a paymentMode" });
    expect((await refused({ name: "Ok", extra: 1 })).status).toBe(400);
    expect(await statusOf(operator, "PUT", "/system/organizations/999", { name: "X" })).toBe(404);
    expect(await statusOf(operator, "PUT", "/system/organizations/abc", { name: "X" })).toBe(404);
  });

  it("names the refused name as the organization editor's field", async () => {
    const { operator, outsider } = await cast();
    const response = await operator.call("PUT", `/system/organizations/${outsider.orgId}`, { name: "   " });
    expect(await response.json()).toEqual({ error: "name: Organization name is required", fields: { name: "Organization name is required" } });
  });
});
