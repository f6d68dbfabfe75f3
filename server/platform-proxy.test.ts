import http from "node:http";
import type { AddressInfo } from "node:net";
import type { AppLoadContext } from "@remix-run/node";
import { afterAll, describe, expect, it, vi } from "vitest";
import { platformClient } from "../app/platform/client.server";
import type { Env } from "./env";
import { startPlatform } from "./platform";
import { platformProxy } from "./platform-proxy";

// With PLATFORM_URL the console's platform calls are forwarded over HTTP. Reads reach the platform as
// bare url, method and headers (app/load-context.ts, decision 0087's eleventh pass); writes as Requests.
// Either way the external platform must get the call the console made.
const received: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
const upstream = http.createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
    res.setHeader("content-type", "application/json");
    if (req.url === "/api/v1/auth/google") {
      res.writeHead(302, { location: "https://idp.example/authorize?state=s", "set-cookie": "oauth_state=s; HttpOnly" });
      res.end();
    } else if (req.url === "/api/v1/auth/session") {
      res.setHeader("set-cookie", "session=renewed; HttpOnly");
      res.end(
        JSON.stringify({ valid: true, user: { id: 7, name: "Ada", email: "ada@example.test" }, organizations: [], activeOrganization: null, activeRole: null }),
      );
    } else res.end(JSON.stringify({ ok: true }));
  });
});
await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
const platform = await startPlatform({
  PLATFORM_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/`,
  platform: { appOrigin: "http://console.test" },
} as Env);
afterAll(() => void upstream.close());

const context = { platformFetch: (request) => platform.fetch(request as Request), clientAddress: "203.0.113.9" } as AppLoadContext;
const browser = new Request("http://console.test/team", { headers: { cookie: "session=abc", origin: "http://console.test" } });

describe("platform calls through PLATFORM_URL", () => {
  it("forward a read with the browser's cookie and address, and bring back its answer and cookies", async () => {
    const api = platformClient(browser, context);
    const session = await api.session();
    expect(session).toMatchObject({ ok: true, data: { valid: true, user: { name: "Ada" } } });
    expect(received.at(-1)).toMatchObject({
      method: "GET",
      url: "/api/v1/auth/session",
      headers: { cookie: "session=abc", accept: "application/json", "x-forwarded-for": "203.0.113.9" },
      body: "",
    });
    expect(api.headers.get("set-cookie")).toBe("session=renewed; HttpOnly");
  });

  it("forward a write with its JSON body and origin", async () => {
    const api = platformClient(new Request(browser.url, { method: "POST", headers: browser.headers }), context);
    expect(await api.switchOrganization(4)).toMatchObject({ ok: true });
    expect(received.at(-1)).toMatchObject({
      method: "POST",
      url: "/api/v1/auth/switch",
      headers: { cookie: "session=abc", origin: "http://console.test", "content-type": "application/json" },
      body: JSON.stringify({ organizationId: 4 }),
    });
  });

  it("forward a browser's own request with the address this server resolved, never the one the browser wrote", async () => {
    // What Express hands the proxy for /api/v1/*: its request, whose `ip` follows TRUST_PROXY.
    const bindings = { incoming: { ip: "198.51.100.7", socket: { remoteAddress: "127.0.0.1" } } };
    const forged = new Request("http://console.test/api/v1/auth/google", { headers: { "x-forwarded-for": "10.9.9.9, 192.0.2.1" } });
    await platform.fetch(forged, bindings);
    expect(received.at(-1)).toMatchObject({ url: "/api/v1/auth/google", headers: { "x-forwarded-for": "198.51.100.7" } });
  });

  it("forward the scheme this server resolved, and none of what the browser wrote about its address, scheme or host", async () => {
    const bindings = { incoming: { ip: "198.51.100.7", protocol: "https", socket: { remoteAddress: "127.0.0.1" } } };
    const claims = {
      forwarded: "for=127.0.0.1;proto=https;host=admin.internal",
      "x-real-ip": "127.0.0.1",
      "x-forwarded-proto": "http",
      "x-forwarded-host": "admin.internal",
      "x-forwarded-port": "8443",
      "true-client-ip": "127.0.0.1",
    };
    await platform.fetch(new Request("http://console.test/api/v1/auth/google", { headers: claims }), bindings);
    const headers = received.at(-1)!.headers;
    expect(headers).toMatchObject({ host: "console.test", "x-forwarded-for": "198.51.100.7", "x-forwarded-proto": "https" });
    for (const name of ["forwarded", "x-real-ip", "x-forwarded-host", "x-forwarded-port", "true-client-ip"]) expect(headers).not.toHaveProperty([name]);
  });

  it("pass a redirect back to the browser rather than follow it, and name the console's host, as the browser did", async () => {
    const start = await platform.fetch(new Request("http://console.example.test/api/v1/auth/google"));
    expect(start.status).toBe(302);
    expect(start.headers.get("location")).toBe("https://idp.example/authorize?state=s");
    expect(start.headers.getSetCookie()).toEqual(["oauth_state=s; HttpOnly"]);
    expect(received.at(-1)).toMatchObject({ url: "/api/v1/auth/google", headers: { host: "console.example.test" } });
    expect(received.filter((r) => r.url.startsWith("/authorize"))).toEqual([]);
  });

  it("leave out the headers of the client's own connection, which the platform's client refuses to send", async () => {
    const bindings = { incoming: { ip: "198.51.100.7", headers: {} } };
    const request = new Request("http://console.test/openai/v1/models", {
      headers: { authorization: "Bearer sk-x", expect: "100-continue", connection: "keep-alive, TE, x-hop", te: "trailers", "x-hop": "1", upgrade: "h2c" },
    });
    const answer = await platform.fetch(request, bindings);
    expect(answer.status).toBe(200);
    const headers = received.at(-1)!.headers;
    expect(headers.authorization).toBe("Bearer sk-x");
    expect([headers.expect, headers.te, headers["x-hop"], headers.upgrade]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("pass on the id this server logs the request under", async () => {
    const bindings = { incoming: { ip: "198.51.100.7", headers: { "x-request-id": "console-id-1" } } };
    await platform.fetch(new Request("http://console.test/api/v1/auth/providers", { headers: { "x-request-id": "not plain!" } }), bindings);
    expect(received.at(-1)!.headers["x-request-id"]).toBe("console-id-1");
  });
});

describe("a platform that can't be reached or does not answer", () => {
  const stalled = http.createServer(() => {});
  const down = `http://127.0.0.1:1`;
  const browser = { incoming: { ip: "198.51.100.7", headers: { "x-request-id": "id-2" } } };
  afterAll(() => {
    stalled.closeAllConnections();
    stalled.close();
  });

  it("answers a client 502 in the contract's shape, OpenAI's under /openai/v1, and names the request in the log", async () => {
    const errors: unknown[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((...args) => void errors.push(args.join(" ")));
    try {
      const proxy = platformProxy(down);
      const api = await proxy(new Request("http://console.test/api/v1/auth/session"), browser);
      expect([api.status, await api.json()]).toEqual([502, { error: "The platform did not answer. Please try again." }]);
      const openai = await proxy(new Request("http://console.test/openai/v1/models"), browser);
      expect(openai.status).toBe(502);
      expect(openai.headers.get("access-control-allow-origin")).toBe("*");
      expect((await openai.json()).error).toMatchObject({ type: "server_error", code: "platform_unreachable" });
      expect(errors).toEqual([
        expect.stringContaining("GET /api/v1/auth/session (request id-2)"),
        expect.stringContaining("GET /openai/v1/models (request id-2)"),
      ]);
      // The console's own calls get the failure, for their own messages (the pages' "Failed to …").
      await expect(proxy(new Request("http://console.test/api/v1/auth/session"))).rejects.toThrow();
    } finally {
      spy.mockRestore();
    }
  });

  it("names a join by the first 4 characters of its invite code in the log, never the whole code", async () => {
    const errors: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((...args) => void errors.push(args.join(" ")));
    try {
      const join = await platformProxy(down)(new Request("http://console.test/api/v1/auth/join/ABCDEFGHJKMN", { method: "POST" }), browser);
      expect(join.status).toBe(502);
      expect(errors).toEqual([expect.stringContaining("POST /api/v1/auth/join/ABCD… (request id-2)")]);
      expect(errors.join("\n")).not.toContain("ABCDEFGHJKMN");
    } finally {
      spy.mockRestore();
    }
  });

  it("logs nothing when the client gave up first: the platform is not at fault", async () => {
    if (!stalled.listening) await new Promise<void>((resolve) => stalled.listen(0, "127.0.0.1", resolve));
    const errors: unknown[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((...args) => void errors.push(args.join(" ")));
    try {
      const proxy = platformProxy(`http://127.0.0.1:${(stalled.address() as AddressInfo).port}`);
      const client = new AbortController();
      const answer = proxy(new Request("http://console.test/openai/v1/chat/completions", { method: "POST", body: "{}", signal: client.signal }), browser);
      setTimeout(() => client.abort(), 100);
      expect((await answer).status).toBe(499);
      expect(errors).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });

  it("answers 503 server_shutting_down (Retry-After: 1) to requests still waiting for the platform at a shutdown's deadline", async () => {
    if (!stalled.listening) await new Promise<void>((resolve) => stalled.listen(0, "127.0.0.1", resolve));
    const proxy = platformProxy(`http://127.0.0.1:${(stalled.address() as AddressInfo).port}`);
    const completion = proxy(new Request("http://console.test/openai/v1/chat/completions", { method: "POST", body: "{}" }), browser);
    const page = proxy(new Request("http://console.test/api/v1/organizations/members"), browser);
    const own = proxy(new Request("http://console.test/api/v1/auth/session"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    proxy.stopRequests();
    const [openai, api] = await Promise.all([completion, page]);
    const message = "The server is shutting down: the request was stopped. Try again.";
    expect([openai.status, openai.headers.get("retry-after"), await openai.json()]).toEqual([
      503,
      "1",
      { error: { message, type: "server_error", param: null, code: "server_shutting_down" } },
    ]);
    expect([api.status, await api.json()]).toEqual([503, { error: message }]);
    // The console's own calls get the failure, for their own messages.
    await expect(own).rejects.toThrow();
  });

  it("gives up on a platform that does not answer in time: 504", async () => {
    if (!stalled.listening) await new Promise<void>((resolve) => stalled.listen(0, "127.0.0.1", resolve));
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const proxy = platformProxy(`http://127.0.0.1:${(stalled.address() as AddressInfo).port}`, { readMs: 200, writeMs: 200, completionMs: 200 });
      const answer = await proxy(new Request("http://console.test/openai/v1/models"), browser);
      expect(answer.status).toBe(504);
      expect((await answer.json()).error.code).toBe("platform_timeout");
    } finally {
      spy.mockRestore();
    }
  });
});
