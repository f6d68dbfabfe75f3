import { afterEach, expect, it } from "vitest";
import type { Harness, Session } from "./harness";
import { createHarness } from "./harness";

/**
 * A NUL character in any input is refused 400 (404 in a path), alike on SQLite and on PostgreSQL,
 * which can't store NUL in text: there, every one of these was a 500 (decision 0130). Runs on SQLite,
 * and on PostgreSQL with TEST_DATABASE_URL.
 */

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

it("refuses a NUL character in a query, a body or a path with the field named, never a 500", async () => {
  h = await createHarness();
  const operator = await h.signIn("Operator", "operator@example.test"); // the first user: the system organization's admin
  const admin = await h.admin("Acme");
  const token = (await (await admin.call("POST", "/tokens", { scopes: ["chat"], expiresAt: null })).json()) as { publicId: string };
  const refusals: [Session, string, string, unknown, number, string][] = [
    [admin, "GET", "/usage?days=30&model=a%00b", undefined, 400, "model: must not contain a NUL character"],
    [admin, "GET", "/usage?days=30&token=a%00b", undefined, 400, "token: must not contain a NUL character"],
    [admin, "GET", "/usage/export?days=30&model=a%00b", undefined, 400, "model: must not contain a NUL character"],
    [admin, "POST", "/organizations", { name: "Ac\u0000me" }, 400, "name: must not contain a NUL character"],
    [operator, "PUT", "/system/organizations/2", { name: "Ac\u0000me" }, 400, "name: must not contain a NUL character"],
    [
      admin,
      "PUT",
      `/tokens/${token.publicId}`,
      { budget: null, allowedModels: ["fake\u0000echo"], rateLimitRpm: null },
      400,
      "allowedModels.0: must not contain a NUL character",
    ],
    [operator, "GET", "/system/organizations?q=a%00b", undefined, 400, "q: must not contain a NUL character"],
  ];
  // Read straight from the path: PostgreSQL's refusal is answered as the request's fault.
  const history = await admin.call("GET", "/models/a%00b/history?days=7");
  expect(history.status).toBeLessThan(500);
  for (const [session, method, path, body, status, error] of refusals) {
    const response = await session.call(method, path, body);
    expect({ path, status: response.status, error: (await response.json()).error }).toEqual({ path, status, error });
  }
  // Half of a surrogate pair was stored as invalid UTF-8 on SQLite, read back unlike PostgreSQL's.
  const broken = await admin.call("POST", "/organizations", { name: "Bad \ud800 name" });
  expect({ status: broken.status, error: (await broken.json()).error }).toEqual({
    status: 400,
    error: "name: must be valid Unicode text (it holds half of a surrogate pair)",
  });
  const created = await admin.call("POST", "/organizations", { name: "Acme Two \u{1F680}" });
  expect(created.status).toBe(201);
});

it("answers the public API's NUL characters as the OpenAI shape's 400 or 404, never a 500", async () => {
  h = await createHarness();
  const admin = await h.admin("Acme");
  const { token } = (await (await admin.call("POST", "/tokens", { scopes: ["chat", "models:read"], expiresAt: null })).json()) as { token: string };
  const call = (path: string, json?: unknown) => h!.fetch(path, { method: json ? "POST" : "GET", headers: { authorization: `Bearer ${token}` }, json });
  for (const response of [
    await call("/openai/v1/models/a%00b"),
    await call("/openai/v1/chat/completions", { model: "a\u0000b", messages: [{ role: "user", content: "hi" }] }),
  ]) {
    expect(response.status).toBeLessThan(500);
    expect((await response.json()).error.type).toBeDefined();
  }
});
