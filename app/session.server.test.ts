import type { AppLoadContext } from "@remix-run/node";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { requireAccess } from "./session.server";

const signedIn = {
  valid: true,
  user: { id: 7, name: "Ada", email: "ada@example.test" },
  organizations: [{ id: 2, name: "Acme" }],
  activeOrganization: { id: 2, name: "Acme", hasPaymentMethod: false },
  activeRole: "admin",
};

function contextCounting() {
  const calls: string[] = [];
  const context = {
    cspNonce: "n",
    hostPrefixes: { app: "app", api: "api" },
    platformFetch: async (request: Request) => {
      calls.push(`${request.method} ${new URL(request.url).pathname}`);
      return Response.json(signedIn);
    },
  } as AppLoadContext;
  return { context, calls };
}

describe("requireAccess: one session check per page load", () => {
  it("asks the platform once for all the loaders of one request", async () => {
    const { context, calls } = contextCounting();
    const layout = await requireAccess("organization", new Request("http://console.test/team"), context);
    const page = await requireAccess("organization", new Request("http://console.test/team"), context);
    expect(calls).toEqual(["GET /api/v1/auth/session"]);
    expect(page.session).toEqual(layout.session);
    await requireAccess("organization", new Request("http://console.test/team"), contextCounting().context);
    expect(calls).toHaveLength(1);
  });

  it("checks again for an action, which may change the session", async () => {
    const { context, calls } = contextCounting();
    await requireAccess("organization", new Request("http://console.test/team"), context);
    await requireAccess("organization", new Request("http://console.test/team", { method: "POST" }), context);
    await requireAccess("organization", new Request("http://console.test/team", { method: "POST" }), context);
    expect(calls).toEqual(["GET /api/v1/auth/session", "GET /api/v1/auth/session", "GET /api/v1/auth/session"]);
  });
});

describe("requireAccess when the platform can't check the session", () => {
  const answering = (response: () => Response) =>
    ({ cspNonce: "n", hostPrefixes: { app: "app", api: "api" }, platformFetch: async () => response() }) as AppLoadContext;

  it("throws a 503 error page, not a redirect to sign in, on a 5xx", async () => {
    for (const status of [500, 502, 503]) {
      const context = answering(() => Response.json({ error: "Internal server error" }, { status }));
      const thrown = await requireAccess("organization", new Request("http://console.test/usage"), context).catch((e: unknown) => e);
      expect(thrown, String(status)).toBeInstanceOf(Response);
      expect((thrown as Response).status, String(status)).toBe(503);
      expect((thrown as Response).headers.get("Location")).toBeNull();
    }
  });

  it("throws a 503 when the platform can't be reached at all", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const context = answering(() => {
      throw new TypeError("fetch failed");
    });
    const thrown = await requireAccess("organization", new Request("http://console.test/usage"), context).catch((e: unknown) => e);
    expect((thrown as Response).status).toBe(503);
    vi.restoreAllMocks();
  });

  it("still sends a signed-out visitor (a 401) to sign in", async () => {
    vi.stubEnv("SESSION_SECRET", "s".repeat(40));
    const context = answering(() => Response.json({ error: "Not signed in" }, { status: 401 }));
    const thrown = await requireAccess("organization", new Request("http://console.test/usage"), context).catch((e: unknown) => e);
    expect((thrown as Response).status).toBe(302);
    expect((thrown as Response).headers.get("Location")).toMatch(/^\/login/);
    vi.unstubAllEnvs();
  });
});

describe("requireAccess for a form posted from another organization's page", () => {
  beforeAll(() => {
    process.env.SESSION_SECRET ??= "test-secret-test-secret-test-secret";
  });
  const stale = (path: string) =>
    new Request(`http://console.test${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ pageOrganization: "9" }),
    });

  it("goes back to the page it was posted from, saying why", async () => {
    const thrown = await requireAccess("organization", stale("/team?tab=invites"), contextCounting().context).catch((e: unknown) => e);
    expect((thrown as Response).status).toBe(302);
    expect((thrown as Response).headers.get("Location")).toBe("/team?tab=invites");
  });

  it("never to another host, whatever the path it was posted to", async () => {
    const thrown = await requireAccess("organization", stale("//evil.example/team"), contextCounting().context).catch((e: unknown) => e);
    expect((thrown as Response).status).toBe(302);
    expect((thrown as Response).headers.get("Location")).toBe("/");
  });
});
