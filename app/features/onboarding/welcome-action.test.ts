import type { AppLoadContext } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { action } from "~/routes/welcome";

beforeAll(() => {
  process.env.SESSION_SECRET ??= "test-secret-test-secret-test-secret";
});

/** The platform's answers by method and path (without /api/v1); the calls are recorded. */
function fakePlatform(session: unknown) {
  const calls: string[] = [];
  const context = {
    clientAddress: "127.0.0.1",
    platformFetch: async (request: Request | { url: string; method: string }) => {
      const path = new URL(request.url).pathname.replace(/^\/api\/v1/, "");
      calls.push(`${request.method} ${path}`);
      if (path === "/auth/session") return Response.json(session);
      if (path === "/organizations") return Response.json({ error: "Not signed in" }, { status: 401 });
      if (path.startsWith("/auth/join/")) return Response.json({ error: "This invite code is invalid or has already been used" }, { status: 404 });
      return Response.json({ error: "Not found" }, { status: 404 });
    },
  } as unknown as AppLoadContext;
  return { context, calls };
}

const post = (context: AppLoadContext, fields: Record<string, string>) =>
  action({ request: new Request("http://console.test/welcome", { method: "POST", body: new URLSearchParams(fields) }), context, params: {} }).catch(
    (thrown: unknown) => thrown,
  );

describe("/welcome's forms after the session ended", () => {
  it("go to sign in, creating nothing, instead of answering 'Not signed in' beside the form", async () => {
    const platform = fakePlatform({ valid: false });
    const answer = (await post(platform.context, { intent: "create", name: "Acme" })) as Response;
    expect(answer).toBeInstanceOf(Response);
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/login");
    expect(platform.calls).toEqual(["GET /auth/session"]);
  });
});

describe("/welcome's forms from a tab left open after joining an organization", () => {
  it("still reach the platform, which answers the code", async () => {
    const platform = fakePlatform({
      valid: true,
      user: { id: 7, name: "Ada", email: "ada@example.test" },
      organizations: [{ id: 2, name: "Acme" }],
      activeOrganization: { id: 2, name: "Acme", hasPaymentMethod: false },
      activeRole: "admin",
    });
    const answer = (await post(platform.context, { intent: "join", code: "NOT-A-CODE" })) as {
      data: { result: { error: Record<string, string[]> } };
      init: { status: number };
    };
    expect(platform.calls).toEqual(["GET /auth/session", "POST /auth/join/NOT-A-CODE"]);
    expect(answer.init.status).toBe(400);
    expect(JSON.stringify(answer.data)).toContain("This invite code is invalid or has already been used");
  });
});
