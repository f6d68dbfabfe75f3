import type { AppLoadContext } from "@remix-run/node";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { UsageReport } from "~/platform/usage";

/**
 * The /usage route as a whole: its loader against a fake platform, and its page rendered on the server
 * (what a browser without JavaScript gets) with what it loaded.
 */
const page = vi.hoisted(() => ({ loader: undefined as unknown }));
vi.mock("@remix-run/react", async () => {
  const router = await import("react-router-dom");
  return {
    ...router,
    useLoaderData: () => page.loader,
    useRouteLoaderData: (id: string) => (id === "root" ? { timeZone: "UTC" } : { activeOrganization: { id: 7 } }),
  };
});

const { createStaticHandler, createStaticRouter, StaticRouterProvider } = await import("react-router-dom/server");
const { loader, default: UsagePage } = await import("~/routes/_org.usage");

beforeAll(() => {
  process.env.SESSION_SECRET ??= "test-secret-test-secret-test-secret";
});

const SESSION = {
  valid: true,
  user: { id: 1, name: "Ada", email: "ada@example.test" },
  organizations: [{ id: 7, name: "Beta" }],
  activeOrganization: { id: 7, name: "Beta", hasPaymentMethod: true },
  activeRole: "admin",
};
const ADA = { id: 1, name: "Ada", email: "ada@example.test", role: "admin" };
/** Ned chatted in Beta, then was removed; Olga never belonged to it. */
const NED = 9;
const OLGA = 12;

const none = { requests: 0, promptTokens: 0, completionTokens: 0, reasoningTokens: 0, cost: 0 };
const nedsChat = { requests: 1, promptTokens: 10, completionTokens: 20, reasoningTokens: 0, cost: 0.01 };
function report(member: string | null): UsageReport {
  const figures = member === null || member === String(NED) ? nedsChat : none;
  return {
    days: 7,
    from: "2026-11-23",
    to: "2026-11-29",
    totals: figures,
    daily: [{ date: "2026-11-29", ...figures }],
    models: [{ model: "builtin", ...figures }],
    sources: [{ kind: "console", token: null, ...figures }],
    members: [{ member: NED, name: "Ned", ...nedsChat }],
    formerMembers: [{ member: NED, name: "Ned" }],
  };
}

/** The platform as it answers for Beta: Ned's usage is filterable though he is no longer a member. */
function fakePlatform() {
  const usageCalls: string[] = [];
  const answer = (method: string, url: URL): { status?: number; body: unknown } => {
    const path = url.pathname.replace(/^\/api\/v1/, "");
    if (method !== "GET") return { status: 404, body: { error: "Not found" } };
    if (path === "/auth/session") return { body: SESSION };
    if (path === "/tokens") return { body: [] };
    if (path === "/models") return { body: { data: [] } };
    if (path === "/organizations/members") return { body: [ADA] };
    if (path === "/organizations/members/1") return { body: ADA };
    if (path.startsWith("/organizations/members/")) return { status: 404, body: { error: "Member not found" } };
    if (path === "/usage") {
      usageCalls.push(url.search);
      const member = url.searchParams.get("member");
      if (member !== null && member !== String(NED) && member !== "1") return { status: 404, body: { error: "Member not found" } };
      return { body: report(member) };
    }
    return { status: 404, body: { error: "Not found" } };
  };
  const context = {
    clientAddress: "127.0.0.1",
    platformFetch: async (request: Request | { url: string; method: string }) => {
      const { status = 200, body } = answer(request.method, new URL(request.url));
      return Response.json(body, { status });
    },
  } as unknown as AppLoadContext;
  return { context, usageCalls };
}

async function load(platform: ReturnType<typeof fakePlatform>, url: string) {
  const answer = await loader({ request: new Request(`http://console.test${url}`), context: platform.context, params: {} });
  return answer as Awaited<ReturnType<typeof loader>>;
}

async function render(url: string) {
  const routes = [{ id: "usage", path: "/usage", element: <UsagePage /> }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://console.test${url}`));
  if (context instanceof Response) throw new Error("unexpected redirect");
  return renderToStaticMarkup(<StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} />);
}

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

describe("/usage filtered by a member who has left (decision 0140)", () => {
  it("keeps the filter, and names them in the Member select as a former member", async () => {
    const platform = fakePlatform();
    const data = await load(platform, `/usage?days=7&member=${NED}`);
    expect(data.filters.member).toBe(NED);
    expect(data.ignored).toBe(false);
    expect(data.options.members).toEqual([
      { id: 1, name: "Ada" },
      { id: NED, name: "Ned (former member)" },
    ]);
    expect(platform.usageCalls).toEqual([`?days=7&member=${NED}`]);

    page.loader = data;
    const html = await render(`/usage?days=7&member=${NED}`);
    expect(html).toMatch(new RegExp(`<option value="${NED}" selected="">Ned \\(former member\\)</option>`));
    expect(text(html)).not.toContain("is not in this organization");
    expect(html).toContain(`href="/usage.csv?days=7&amp;member=${NED}`);
    // The per-member table says so too.
    expect(text(html)).toContain("Ned (former member) 1");
  });

  it("offers those who have left among the report's members when nothing is filtered", async () => {
    const data = await load(fakePlatform(), "/usage?days=7");
    expect(data.options.members).toEqual([
      { id: 1, name: "Ada" },
      { id: NED, name: "Ned (former member)" },
    ]);
  });

  it("still drops a member the platform does not know here, and says so", async () => {
    const platform = fakePlatform();
    const data = await load(platform, `/usage?days=7&member=${OLGA}`);
    expect(data.filters.member).toBeUndefined();
    expect(data.ignored).toBe(true);
    expect(platform.usageCalls).toEqual([`?days=7&member=${OLGA}`, "?days=7"]);
    page.loader = data;
    expect(text(await render(`/usage?days=7&member=${OLGA}`))).toContain(
      "A token or member in the link is not in this organization: showing usage without that filter.",
    );
  });
});
