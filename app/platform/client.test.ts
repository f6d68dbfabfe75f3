import type { AppLoadContext } from "@remix-run/node";
import { format } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { chatReceipt } from "./chat.server";
import { errorText, platformClient } from "./client.server";
import { systemApi } from "./system.server";
import { tokensApi } from "./tokens.server";

describe("errorText: what the console shows for a failed call (SPEC §8, DESIGN §3)", () => {
  it("shows the contract's error field", async () => {
    expect(await errorText(Response.json({ error: "Organization signup is disabled" }, { status: 403 }), "Failed")).toBe("Organization signup is disabled");
  });

  it("shows the OpenAI-shaped error message", async () => {
    expect(await errorText(Response.json({ error: { message: "Model not found", type: "invalid_request_error" } }), "Failed")).toBe("Model not found");
  });

  it("shows a short plain-text body, else the default", async () => {
    expect(await errorText(new Response("Bad Gateway", { status: 502 }), "Failed to create organization")).toBe("Bad Gateway");
    expect(await errorText(new Response("<html>error</html>", { status: 500 }), "Failed to create organization")).toBe("Failed to create organization");
    expect(await errorText(new Response("", { status: 500 }), "Failed to join organization")).toBe("Failed to join organization");
    expect(await errorText(Response.json({ nope: 1 }, { status: 500 }), "Failed to join organization")).toBe("Failed to join organization");
  });
});

describe("an answer that cannot be read", () => {
  const contextAnswering = (answer: () => Response) => ({ platformFetch: async () => answer(), clientAddress: "127.0.0.1" }) as unknown as AppLoadContext;
  const request = new Request("http://console.test/team");

  it("is the call's fallback (502): a 200 that is a page of HTML, or a body that breaks off", async () => {
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const page = platformClient(
        request,
        contextAnswering(() => new Response("<html>Maintenance</html>", { headers: { "content-type": "text/html" } })),
      );
      expect(await page.session()).toEqual({ ok: false, status: 502, error: "Failed to load session", logged: true });
      const broken = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"valid":'));
          controller.error(new Error("other side closed"));
        },
      });
      const cut = platformClient(
        request,
        contextAnswering(() => new Response(broken, { headers: { "content-type": "application/json" } })),
      );
      expect(await cut.organizationConfig()).toEqual({ ok: false, status: 502, error: "Failed to load organization config", logged: true });
    } finally {
      quiet.mockRestore();
    }
  });
});

describe("what the console's error lines hold of a call's path", () => {
  it("cuts a join's invite code to its first 4 characters, whatever went wrong", async () => {
    const logged: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    try {
      const code = "ABCDEFGHJKMN";
      const answers = [
        () => Promise.reject(new TypeError("fetch failed")),
        async () => new Response("<html>Maintenance</html>"),
        async () => Response.json({ unexpected: true }),
      ];
      for (const answer of answers) {
        const api = platformClient(new Request("http://console.test/onboarding"), { platformFetch: answer } as unknown as AppLoadContext);
        expect(await api.joinOrganization(code)).toMatchObject({ ok: false, status: 502 });
      }
      expect(logged).toHaveLength(3);
      for (const line of logged) expect(line).toMatch(/^Platform POST \/api\/v1\/auth\/join\/ABCD… /);
      expect(logged.join("\n")).not.toContain(code);
    } finally {
      vi.restoreAllMocks();
    }
  });
});

describe("the one line a failed call logs", () => {
  const linesOf = async (failure: () => Promise<Response>, headers?: HeadersInit) => {
    const lines: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void lines.push(format(...args)));
    try {
      const api = platformClient(new Request("http://console.test/models", { headers }), { platformFetch: failure } as unknown as AppLoadContext);
      expect(await api.organizationConfig()).toMatchObject({ ok: false, status: 502, logged: true });
      return lines;
    } finally {
      vi.restoreAllMocks();
    }
  };

  it("names the request, and the error's message and code, and its cause's: no stack", async () => {
    const timeout = Object.assign(new Error("Connect Timeout Error"), { code: "UND_ERR_CONNECT_TIMEOUT" });
    expect(await linesOf(() => Promise.reject(timeout), { "x-request-id": "req-7" })).toEqual([
      "Platform GET /api/v1/organizations/config (request req-7) failed: Connect Timeout Error (UND_ERR_CONNECT_TIMEOUT)",
    ]);
    const refused = Object.assign(new Error("connect ECONNREFUSED ::1:3001"), { code: "ECONNREFUSED", syscall: "connect" });
    expect(await linesOf(() => Promise.reject(new TypeError("fetch failed", { cause: refused })))).toEqual([
      "Platform GET /api/v1/organizations/config failed: fetch failed: connect ECONNREFUSED ::1:3001",
    ]);
  });

  it("says where an answer of the wrong shape went wrong, in one line", async () => {
    expect(await linesOf(async () => Response.json({ orgSignupEnabled: "yes" }), { "x-request-id": "req-8" })).toEqual([
      "Platform GET /api/v1/organizations/config (request req-8) answered an unexpected body: orgSignupEnabled: Expected boolean, received string",
    ]);
  });
});

describe("a typed value of dots in a platform path", () => {
  it("stays in its segment: the call reaches the route meant, not the one above it", async () => {
    const paths: string[] = [];
    const platformFetch = async (request: { url: string }) => {
      paths.push(new URL(request.url).pathname);
      return Response.json({ error: "Not found" }, { status: 404 });
    };
    const api = platformClient(new Request("http://console.test/team"), { platformFetch } as unknown as AppLoadContext);
    await api.joinOrganization(".");
    await api.joinOrganization("..");
    await chatReceipt(api, "..");
    await tokensApi(api).roll(".", "none");
    await systemApi(api).deleteModel("org/..");
    expect(paths).toEqual([
      "/api/v1/auth/join/%252E",
      "/api/v1/auth/join/%252E%252E",
      "/api/v1/chat/receipts/%252E%252E",
      "/api/v1/tokens/%252E/roll",
      "/api/v1/models/org/%252E%252E",
    ]);
  });
});
