import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
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
