import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it, vi } from "vitest";
import { renderRoute, routeData, setUpRoutePages } from "~/lib/route-page.testing";

/**
 * The /tokens route as a whole: its loader and action against a fake platform, and its page rendered
 * on the server (what a browser without JavaScript gets) with what they answered.
 */
vi.mock("@remix-run/react", async () => (await import("~/lib/route-page.testing")).remixReadingRouteData());

const { action, loader, default: TokensPage } = await import("~/routes/_org.tokens");

setUpRoutePages();

/** "unreachable": the call throws, as a refused connection does. */
type Answer = { status?: number; body: unknown } | "unreachable";
const SESSION = {
  valid: true,
  user: { id: 1, name: "Ada", email: "ada@example.test" },
  organizations: [{ id: 7, name: "Acme" }],
  activeOrganization: { id: 7, name: "Acme", hasPaymentMethod: true },
  activeRole: "admin",
};
const SCOPES = ["chat", "models:read", "images", "audio"];
const PRIMARY = { publicId: "tok_primary", scopes: SCOPES, expiresAt: null, revoked: false, createdAt: 1, primary: true };
const FAILED: Answer = { status: 500, body: { error: "Internal error" } };

function fakePlatform(answers: Record<string, Answer> = {}) {
  const defaults: Record<string, Answer> = {
    "GET /auth/session": { body: SESSION },
    "GET /tokens": { body: [PRIMARY] },
    "GET /tokens/scopes": { body: SCOPES },
    "GET /models": { body: { data: [] } },
    "GET /usage/token-spend": { body: { month: "2026-11", tokens: [{ token: "tok_primary", spent: 4.5 }] } },
  };
  return {
    clientAddress: "127.0.0.1",
    platformFetch: async (request: Request | { url: string; method: string }) => {
      const path = new URL(request.url).pathname.replace(/^\/api\/v1/, "");
      const answer = answers[`${request.method} ${path}`] ?? defaults[`${request.method} ${path}`] ?? { status: 404, body: { error: "Not found" } };
      if (answer === "unreachable") throw new Error("connect ECONNREFUSED");
      return Response.json(answer.body, { status: answer.status ?? 200 });
    },
  } as unknown as AppLoadContext;
}

async function load(context: AppLoadContext, url = "http://console.test/tokens") {
  return loader({ request: new Request(url), context, params: {} });
}

async function post(context: AppLoadContext, fields: string, url = "http://console.test/tokens") {
  const request = new Request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: fields });
  return ((await action({ request, context, params: {} })) as unknown as { data: unknown }).data;
}

const render = () => renderRoute("/tokens", <TokensPage />);

const checkedScope = (html: string, scope: string) => new RegExp(`<input type="checkbox" name="scopes"[^>]*checked=""[^>]*value="${scope}"/>`).test(html);

describe("/tokens without JavaScript", () => {
  it("keeps the one scope the admin checked when the platform refuses the creation", async () => {
    const context = fakePlatform({ "POST /tokens": { status: 429, body: { error: "Too many tokens created: at most 20 a minute per organization." } } });
    routeData.loader = await load(context);
    routeData.action = await post(context, "intent=create&pageOrganization=7&scopes=chat&expiry=7");
    const html = await render();
    expect(html).toContain("Too many tokens created");
    expect(SCOPES.filter((scope) => checkedScope(html, scope))).toEqual(["chat"]);
  });

  it("keeps several checked scopes too", async () => {
    const context = fakePlatform({ "POST /tokens": FAILED });
    routeData.loader = await load(context);
    routeData.action = await post(context, "intent=create&pageOrganization=7&scopes=chat&scopes=audio&expiry=7");
    const html = await render();
    expect(SCOPES.filter((scope) => checkedScope(html, scope))).toEqual(["chat", "audio"]);
  });

  it("says the list failed to load, not that there are no tokens", async () => {
    routeData.loader = await load(fakePlatform({ "GET /tokens": FAILED }));
    const html = await render();
    expect(html).toContain("Internal error");
    expect(html).not.toContain("No tokens yet.");
    expect(html).not.toContain('aria-label="API tokens"');
  });

  it("shows each token's month as unknown, not $0.00, when its spend failed to load, and says why", async () => {
    routeData.loader = await load(fakePlatform({ "GET /usage/token-spend": FAILED }));
    const html = await render();
    expect(html).not.toContain("$0.00");
    expect(html).toContain('<span class="sr-only">Unknown</span>');
    expect(html).toContain("Failed to load token spend: the month&#x27;s figures are not shown.");
  });

  it("says who made each token in its own column, and no one for the primary token or a maker gone (an older platform says nothing)", async () => {
    const made = { ...PRIMARY, publicId: "tok_mia", primary: false, scopes: ["chat"], createdBy: { id: 2, name: "שירה כהן" } };
    const gone = { ...made, publicId: "tok_gone", createdBy: null };
    routeData.loader = await load(fakePlatform({ "GET /tokens": { body: [{ ...PRIMARY, createdBy: null }, made, gone] } }));
    const html = await render();
    const row = (id: string) => html.match(new RegExp(`<tr data-token="${id}">.*?</tr>`))?.[0] ?? "";
    expect(html).toContain("<th>Made by</th>");
    expect(row("tok_mia")).toContain("<td><bdi>שירה כהן</bdi></td>");
    for (const id of ["tok_gone", "tok_primary"]) expect(row(id)).toContain('<td><span class="text-base-content/50">—</span></td>');
  });

  it("has no Made by column when the platform (of the earlier contract) says nothing of makers, rather than — for each", async () => {
    const made = { ...PRIMARY, publicId: "tok_mia", primary: false, scopes: ["chat"] };
    routeData.loader = await load(fakePlatform({ "GET /tokens": { body: [PRIMARY, made] } }));
    const html = await render();
    expect(html).not.toContain("Made by");
    expect(html).not.toContain('<td><span class="text-base-content/50">—</span></td>');
  });

  it("shows each token's month when it loaded", async () => {
    routeData.loader = await load(fakePlatform());
    const html = await render();
    expect(html).toContain('<span class="tabular-nums">$4.50</span>');
    expect(html).not.toContain("Failed to load token spend");
  });
});

describe("/tokens with more tokens than a page", () => {
  // 119 revoked tokens, newest first by number, after the primary token: 120 in all, pages of 50.
  const many = [
    PRIMARY,
    ...Array.from({ length: 119 }, (_, i) => ({
      ...PRIMARY,
      publicId: `tok_${String(i + 1).padStart(3, "0")}`,
      primary: false,
      revoked: true,
      createdAt: 1000 - i,
    })),
  ];
  const context = () =>
    fakePlatform({
      "GET /tokens": { body: many },
      "GET /usage/token-spend": { body: { month: "2026-11", tokens: many.map((t) => ({ token: t.publicId, spent: 1 })) } },
    });
  const rowsOf = (html: string) => [...html.matchAll(/<code[^>]*>(tok_[a-z0-9]+)<\/code>/g)].map((m) => m[1]);

  it("shows 50 in SPEC's order with the count of all of them, Previous and Next, and only that page's figures", async () => {
    routeData.loader = await load(context(), "http://console.test/tokens?page=2");
    const data = routeData.loader as { monthSpend: Record<string, number>; page: { tokens: unknown[] } };
    expect(Object.keys(data.monthSpend)).toHaveLength(50);
    const html = await render();
    expect(rowsOf(html)).toEqual(many.slice(50, 100).map((t) => t.publicId));
    expect(html).toMatch(/Tokens <span class="badge[^"]*">120<\/span>/);
    expect(html).toContain('href="/tokens"');
    expect(html).toContain('href="/tokens?page=3"');
  });

  it("shows the last page for a page past the end", async () => {
    routeData.loader = await load(context(), "http://console.test/tokens?page=9");
    const html = await render();
    expect(rowsOf(html)).toEqual(many.slice(100).map((t) => t.publicId));
    expect(html).toContain('href="/tokens?page=2"');
  });

  it("goes back to the page a revoke was made from", async () => {
    const request = new Request("http://console.test/tokens?page=2", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "intent=revoke&pageOrganization=7&publicId=tok_060",
    });
    const answer = (await action({
      request,
      context: fakePlatform({ "DELETE /tokens/tok_060": { body: { ...many[60], revoked: true } } }),
      params: {},
    })) as Response;
    expect(answer.headers.get("location")).toBe("/tokens?page=2");
  });
});

describe("/tokens' rows for an admin", () => {
  it("offer no Revoke on a token whose expiresAt has passed, as on a revoked one, and Revoke on an active one (SPEC §4)", async () => {
    const past = Date.now() - 60_000;
    const token = (publicId: string, fields: object) => ({ ...PRIMARY, publicId, primary: false, scopes: ["chat"], ...fields });
    const listed = [PRIMARY, token("tok_expired", { expiresAt: past }), token("tok_revoked", { revoked: true }), token("tok_active", {})];
    routeData.loader = await load(fakePlatform({ "GET /tokens": { body: listed } }));
    const html = await render();
    const row = (id: string) => html.match(new RegExp(`<tr data-token="${id}">.*?</tr>`))?.[0] ?? "";
    expect(row("tok_expired")).toContain(">expired</span>");
    for (const id of ["tok_expired", "tok_revoked"]) expect(row(id)).not.toContain("Revoke");
    expect(row("tok_active")).toContain("Revoke");
  });
});

describe("/tokens with the platform unreachable or answering a wrong shape (SPEC §8)", () => {
  const quiet = () => vi.spyOn(console, "error").mockImplementation(() => {});
  const WRONG_SHAPE: Answer = { body: { unexpected: true } };
  // The text, the failing call, and the form sent (none: the page's load).
  const cases: [string, string, string | null][] = [
    ["Failed to load tokens", "GET /tokens", null],
    ["Failed to create token", "POST /tokens", "intent=create&pageOrganization=7&scopes=chat&expiry=7"],
    ["Failed to revoke token", "DELETE /tokens/tok_other", "intent=revoke&pageOrganization=7&publicId=tok_other"],
    ["Failed to reset token", "POST /organizations/reset-token", "intent=reset&pageOrganization=7"],
  ];
  for (const [text, call, form] of cases)
    for (const [how, answer] of [
      ["unreachable", "unreachable"],
      ["a wrong shape", WRONG_SHAPE],
    ] as const)
      it(`shows '${text}' when ${call} is ${how}`, async () => {
        const spy = quiet();
        try {
          const context = fakePlatform({ [call]: answer });
          routeData.loader = await load(context);
          if (form) routeData.action = await post(context, form);
          const html = await render();
          expect(html).toMatch(new RegExp(`role="alert"[^>]*>(<[^>]+>)*${text}<`));
        } finally {
          spy.mockRestore();
        }
      });
});
