import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it, vi } from "vitest";
import { routeData, setUpRoutePages } from "~/lib/route-page.testing";
import { staticPage } from "~/lib/static-page.testing";

/** /welcome as a whole: its loader and action against a fake platform, its page rendered with what they answered. */
vi.mock("@remix-run/react", async () => (await import("~/lib/route-page.testing")).remixReadingRouteData());

const { action, loader, default: Welcome } = await import("~/routes/welcome");

setUpRoutePages();

/** A signed-in user with no organization yet: the one /welcome is for. */
const NEWCOMER = {
  valid: true,
  user: { id: 7, name: "Ada", email: "ada@example.test" },
  organizations: [],
  activeOrganization: null,
  activeRole: null,
};

type Answer = Response | "unreachable";

/** The platform's answers by method and path (without /api/v1); "unreachable" throws as a refused connection does. */
function fakePlatform(answers: Record<string, () => Answer>) {
  const calls: string[] = [];
  const context = {
    clientAddress: "127.0.0.1",
    platformFetch: async (request: Request | { url: string; method: string }) => {
      const path = new URL(request.url).pathname.replace(/^\/api\/v1/, "");
      calls.push(`${request.method} ${path}`);
      const answer = answers[`${request.method} ${path}`]?.() ?? Response.json({ error: "Not found" }, { status: 404 });
      if (answer === "unreachable") throw new Error("connect ECONNREFUSED");
      return answer;
    },
  } as unknown as AppLoadContext;
  return { context, calls };
}

const signOut = (context: AppLoadContext) =>
  action({
    request: new Request("http://console.test/welcome", { method: "POST", headers: { cookie: "sid=abc" }, body: new URLSearchParams({ intent: "logout" }) }),
    context,
    params: {},
  }).catch((thrown: unknown) => thrown);

const render = async () => (await staticPage("/welcome", <Welcome />))();

describe("/welcome's Sign Out", () => {
  it("ends the session on the platform and goes to /login with the platform's cookie", async () => {
    const platform = fakePlatform({
      "POST /auth/logout": () => Response.json({ ok: true }, { headers: { "set-cookie": "sid=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax" } }),
    });
    const answer = (await signOut(platform.context)) as Response;
    expect(answer).toBeInstanceOf(Response);
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/login");
    expect(answer.headers.getSetCookie()).toContain("sid=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax");
    expect(platform.calls).toEqual(["POST /auth/logout"]);
  });

  it.each([
    ["unreachable", (): Answer => "unreachable"],
    ["refusing", (): Answer => Response.json({ error: "Internal error" }, { status: 500 })],
  ])("shows the full-screen 'Error: Failed to logout' when the platform is %s (SPEC §8)", async (_, answer) => {
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const answered = (await signOut(fakePlatform({ "POST /auth/logout": answer }).context)) as { data: unknown; init: { status: number } };
      expect(answered.init.status).toBe(502);
      routeData.action = answered.data;
      routeData.loader = { user: NEWCOMER.user, orgSignupEnabled: true };
      const html = await render();
      expect(html).toMatch(/<div role="alert" class="alert alert-error[^"]*">Error: Failed to logout<\/div>/);
      expect(html).not.toContain("Sign Out");
    } finally {
      quiet.mockRestore();
    }
  });
});

describe("/welcome when the organization config can't be fetched", () => {
  it.each([
    ["unreachable", (): Answer => "unreachable"],
    ["answering a wrong shape", (): Answer => Response.json({ signup: "maybe" })],
  ])("defaults to signup enabled when the platform is %s, and offers the create form (SPEC §8)", async (_, answer) => {
    const quiet = [vi.spyOn(console, "error").mockImplementation(() => {}), vi.spyOn(console, "warn").mockImplementation(() => {})];
    try {
      const platform = fakePlatform({ "GET /auth/session": () => Response.json(NEWCOMER), "GET /organizations/config": answer });
      routeData.loader = await loader({ request: new Request("http://console.test/welcome"), context: platform.context, params: {} });
      expect(routeData.loader).toEqual({ user: NEWCOMER.user, orgSignupEnabled: true });
      expect(platform.calls).toContain("GET /organizations/config");
      const html = await render();
      expect(html).toContain('placeholder="My Organization"');
      expect(html).toContain("Create Organization");
      expect(html).not.toContain("Get started by entering your invite code.");
    } finally {
      for (const spy of quiet) spy.mockRestore();
    }
  });

  it("offers only the invite code when the config says signup is off, as a check that the config is read", async () => {
    const platform = fakePlatform({
      "GET /auth/session": () => Response.json(NEWCOMER),
      "GET /organizations/config": () => Response.json({ orgSignupEnabled: false }),
    });
    routeData.loader = await loader({ request: new Request("http://console.test/welcome"), context: platform.context, params: {} });
    const html = await render();
    expect(html).toContain("Get started by entering your invite code.");
    expect(html).not.toContain('placeholder="My Organization"');
  });
});
