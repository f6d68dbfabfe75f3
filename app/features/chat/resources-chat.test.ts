import type { AppLoadContext } from "@remix-run/node";
import { format } from "node:util";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { loader } from "~/routes/resources.chat";

beforeAll(() => {
  process.env.SESSION_SECRET ??= "test-secret-test-secret-test-secret";
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A platform answering GET /models/status with `status` and `body`. */
function platform(status: number, body: unknown) {
  return {
    clientAddress: "127.0.0.1",
    platformFetch: async (request: Request | { url: string }) =>
      new URL(request.url).pathname === "/api/v1/models/status" ? Response.json(body, { status }) : Response.json({ error: "Not found" }, { status: 404 }),
  } as unknown as AppLoadContext;
}

async function poll(context: AppLoadContext, headers?: HeadersInit) {
  const answer = await loader({ request: new Request("http://console.test/resources/chat?status=1", { headers }), context, params: {} });
  return { status: answer.status, body: (await answer.json()) as unknown };
}

describe("the chat's model status poll", () => {
  it("passes the platform's refusal of a signed-out or organization-less caller on, without a server warning", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(await poll(platform(401, { error: "Not signed in" }))).toEqual({ status: 401, body: { error: "Not signed in" } });
    expect(await poll(platform(403, { error: "Join or create an organization first" }))).toEqual({
      status: 403,
      body: { error: "Join or create an organization first" },
    });
    expect(warn).not.toHaveBeenCalled();
  });

  it("answers a platform failure 502 'Failed to load model status', and logs it", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(await poll(platform(500, { error: "Internal error" }))).toEqual({ status: 502, body: { error: "Failed to load model status" } });
    expect(warn).toHaveBeenCalledOnce();
  });

  it("answers the status map", async () => {
    expect(await poll(platform(200, { "fake-echo": "online" }))).toEqual({ status: 200, body: { "fake-echo": "online" } });
  });

  it("with the platform down, logs each failed poll once, in one line naming the request: the cause's message and code, no stack", async () => {
    const lines: string[] = [];
    const keep = (...args: unknown[]) => void lines.push(format(...args));
    vi.spyOn(console, "error").mockImplementation(keep);
    vi.spyOn(console, "warn").mockImplementation(keep);
    // What undici throws for PLATFORM_URL with nothing listening (server/platform-proxy.ts passes it on).
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:3001"), { code: "ECONNREFUSED", errno: -111, syscall: "connect" });
    const down = { clientAddress: "127.0.0.1", platformFetch: async () => Promise.reject(refused) } as unknown as AppLoadContext;
    expect(await poll(down, { "x-request-id": "3b0c6f6e-1c1a-4a8e-9a55-2f1f0d6c7e11" })).toEqual({
      status: 502,
      body: { error: "Failed to load model status" },
    });
    expect(lines).toEqual(["Platform GET /api/v1/models/status (request 3b0c6f6e-1c1a-4a8e-9a55-2f1f0d6c7e11) failed: connect ECONNREFUSED 127.0.0.1:3001"]);
  });
});
