import type { AppLoadContext } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { PAGE_ORGANIZATION_HEADER } from "~/features/auth/page-organization";
import { action as logout, LOGOUT_INCOMPLETE } from "~/routes/logout";
import { action as sendChat } from "~/routes/resources.chat";

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
