import type { AppLoadContext } from "@remix-run/node";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { PAGE_ORGANIZATION_HEADER } from "~/features/auth/page-organization";
import { action as logout, LOGOUT_INCOMPLETE } from "~/routes/logout";
import { action as sendChat } from "~/routes/resources.chat";
import { loader as exportAudit } from "~/routes/audit[.]csv";
import { AUDIT_LOAD_ERROR } from "./audit.server";

// What the console's routes answer when the platform can't be reached (PLATFORM_URL down, or the
// embedded platform's database): its calls throw (server/platform-proxy.ts).
const down = { platformFetch: async () => Promise.reject(new Error("connect ECONNREFUSED")), clientAddress: "127.0.0.1" } as unknown as AppLoadContext;

beforeAll(() => {
  process.env.SESSION_SECRET ??= "test-secret-test-secret-test-secret";
});

describe("with the platform down", () => {
  it("Logout still signs this browser out, and says the session could not be ended", async () => {
    const request = new Request("http://console.test/logout", { method: "POST", headers: { cookie: "sid=abc" } });
    const answer = await logout({ request, context: down, params: {} });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/login");
    const cookies = answer.headers.getSetCookie();
    expect(cookies).toContainEqual(expect.stringMatching(/^sid=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax$/));
    expect(cookies).toContainEqual(expect.stringMatching(/^toast=/));
    expect(LOGOUT_INCOMPLETE).toMatch(/^Failed to logout/);
  });

  it("the chat answers 'Failed to send message' (502), not a 503 the chat reads as a model warming up", async () => {
    const request = new Request("http://console.test/resources/chat", {
      method: "POST",
      headers: { "content-type": "application/json", [PAGE_ORGANIZATION_HEADER]: "2" },
      body: JSON.stringify({ model: "fake-echo", messages: [{ role: "user", content: "Hi" }] }),
    });
    const answer = await sendChat({ request, context: down, params: {} });
    expect(answer.status).toBe(502);
    expect(await answer.json()).toEqual({ error: { message: "Failed to send message" } });
  });
});

describe("with the platform gone after the session was read", () => {
  const session = {
    valid: true,
    user: { id: 7, name: "Ada", email: "ada@example.test" },
    organizations: [{ id: 2, name: "Acme" }],
    activeOrganization: { id: 2, name: "Acme", hasPaymentMethod: false },
    activeRole: "admin",
  };
  const halfway = {
    platformFetch: async (request: { url: string }) => {
      if (new URL(request.url).pathname === "/api/v1/auth/session") return Response.json(session);
      throw new Error("Headers Timeout Error");
    },
    clientAddress: "127.0.0.1",
  } as unknown as AppLoadContext;

  it("the audit export answers 502 'Failed to load the audit log' as text, as the other exports answer, not an error page", async () => {
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const answer = await exportAudit({ request: new Request("http://console.test/audit.csv"), context: halfway, params: {} });
      expect(answer.status).toBe(502);
      expect(answer.headers.get("content-type")).toBe("text/plain");
      expect(await answer.text()).toBe(AUDIT_LOAD_ERROR);
    } finally {
      quiet.mockRestore();
    }
  });
});
