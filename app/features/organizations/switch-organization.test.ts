import type { AppLoadContext } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { action } from "~/routes/switch-organization";
import { takeToast } from "~/toast.server";

beforeAll(() => {
  process.env.SESSION_SECRET ??= "test-secret-test-secret-test-secret";
});

type Answer = { status?: number; body: unknown };

/** A platform that switches to organization 42, then answers the session check with `session`. */
function platform(session: Answer) {
  return {
    clientAddress: "127.0.0.1",
    platformFetch: async (request: Request | { url: string; method: string }) => {
      const path = new URL(request.url).pathname.replace(/^\/api\/v1/, "");
      const answer: Answer =
        path === "/auth/switch" ? { body: { ok: true } } : path === "/auth/session" ? session : { status: 404, body: { error: "Not found" } };
      return Response.json(answer.body, { status: answer.status ?? 200 });
    },
  } as unknown as AppLoadContext;
}

function sessionAs(role: "admin" | "member"): Answer {
  return {
    body: {
      valid: true,
      user: { id: 1, name: "Ada", email: "ada@example.test" },
      organizations: [{ id: 42, name: "Acme" }],
      activeOrganization: { id: 42, name: "Acme", hasPaymentMethod: false },
      activeRole: role,
    },
  };
}

async function switchFrom(redirectTo: string, session: Answer): Promise<string | null> {
  const request = new Request("http://console.test/switch-organization", {
    method: "POST",
    body: new URLSearchParams({ organizationId: "42", redirectTo }),
  });
  const response = await action({ request, context: platform(session), params: {} });
  expect(response.status).toBe(302);
  return response.headers.get("Location");
}

describe("switching organization from an admin-only page", () => {
  it("lands a member of the new organization on /team, not on a 403 page", async () => {
    expect(await switchFrom("/audit?days=30", sessionAs("member"))).toBe("/team");
  });

  it("keeps an admin of the new organization on the page", async () => {
    expect(await switchFrom("/audit?days=30", sessionAs("admin"))).toBe("/audit?days=30");
  });

  it("goes to /team when the session cannot be read back after the switch", async () => {
    expect(await switchFrom("/audit", { status: 500, body: { error: "Internal error" } })).toBe("/team");
  });

  it("keeps a member on a page every member has", async () => {
    expect(await switchFrom("/usage?days=90", sessionAs("member"))).toBe("/usage?days=90");
  });
});

describe("a switch made", () => {
  it("says so in a toast naming the organization now active, as creating or joining one does", async () => {
    const request = new Request("http://console.test/switch-organization", {
      method: "POST",
      body: new URLSearchParams({ organizationId: "42", redirectTo: "/organizations" }),
    });
    const response = await action({ request, context: platform(sessionAs("member")), params: {} });
    const next = new Request("http://console.test/organizations", { headers: { cookie: cookiesOf(response) } });
    expect((await takeToast(next)).toast).toEqual({ kind: "success", message: "You are now working in \u2068Acme\u2069." });
  });

  it("says nothing when the session cannot be read back (the page then shows the organization)", async () => {
    const request = new Request("http://console.test/switch-organization", {
      method: "POST",
      body: new URLSearchParams({ organizationId: "42", redirectTo: "/team" }),
    });
    const response = await action({ request, context: platform({ status: 500, body: { error: "Internal error" } }), params: {} });
    expect(cookiesOf(response)).not.toMatch(/toast/i);
  });
});

function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

describe("the organization to switch to", () => {
  it("is an id in digits: 0x2a, 42.0 or 4.2e1 switches to nothing, and says to choose one", async () => {
    for (const typed of ["0x2a", "42.0", "4.2e1", " 42"]) {
      const switched: string[] = [];
      const context = {
        clientAddress: "127.0.0.1",
        platformFetch: async (request: Request) => {
          switched.push(await request.text());
          return Response.json({ ok: true });
        },
      } as unknown as AppLoadContext;
      const request = new Request("http://console.test/switch-organization", {
        method: "POST",
        body: new URLSearchParams({ organizationId: typed, redirectTo: "/team" }),
      });
      const response = await action({ request, context, params: {} });
      expect(response.headers.get("Location"), typed).toBe("/team");
      expect(switched, typed).toEqual([]);
    }
  });
});
