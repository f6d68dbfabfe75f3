import fs from "node:fs";
import http from "node:http";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "./testing/raw-request";
import type { RawAnswer, RawRequest } from "./testing/raw-request";
import { spawnServer } from "./testing/spawned-server";
import type { SpawnedServer } from "./testing/spawned-server";

/**
 * The server as it runs: spawned with tsx on a port of its own (no APP_ORIGIN: the default
 * http://localhost:PORT, development sign-in mode), spoken to with raw HTTP so the Host header and
 * the body's framing are ours to choose.
 */
const PORT = Number(process.env.SECURITY_TEST_PORT ?? 4001);
let server: SpawnedServer;

beforeAll(async () => {
  server = await spawnServer(PORT);
}, 90_000);

afterAll(() => server?.stop());

/** One request to the server as it runs (server/testing/raw-request.ts). */
const request = (options: RawRequest): Promise<RawAnswer> => rawRequest(PORT, options);

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

describe("the host allow-list", () => {
  it("refuses a forged Host with 421 before any handler, and keeps /healthz reachable", async () => {
    const forged = await request({ method: "GET", path: "/login", host: `evil.example:${PORT}` });
    expect(forged.status).toBe(421);
    expect(forged.body).toMatch(/Misdirected request/);
    expect((await request({ method: "GET", path: "/api/v1/auth/session", host: `evil.example:${PORT}` })).status).toBe(421);
    expect((await request({ method: "GET", path: "/login", headers: { "x-forwarded-host": "evil.example" } })).status).toBe(421);
    expect((await request({ method: "GET", path: "/healthz", host: "anything.example" })).status).toBe(200);
  });

  it("answers the configured origin and, in development sign-in mode, the loopback names", async () => {
    for (const host of [`localhost:${PORT}`, `127.0.0.1:${PORT}`, `[::1]:${PORT}`]) {
      expect((await request({ method: "GET", path: "/api/v1/auth/providers", host })).status).toBe(200);
    }
    expect((await request({ method: "GET", path: "/api/v1/auth/providers", host: "localhost:1" })).status).toBe(421);
  });

  it("refuses the DNS-rebinding sign-in: Host evil.example to the development sign-in page from 127.0.0.1", async () => {
    const query = "?client_id=dev-google&redirect_uri=x&state=s&code_challenge=c&code_challenge_method=S256";
    expect((await request({ method: "GET", path: `/api/v1/auth/dev/authorize${query}`, host: `evil.example:${PORT}` })).status).toBe(421);
    const form = { "content-type": "application/x-www-form-urlencoded" };
    expect((await request({ method: "POST", path: "/api/v1/auth/dev/authorize", host: `evil.example:${PORT}`, headers: form, bytes: 10 })).status).toBe(421);
    expect((await request({ method: "GET", path: "/api/v1/auth/google", host: `evil.example:${PORT}` })).status).toBe(421);
  });
});

describe("body limits", () => {
  const form = { "content-type": "application/x-www-form-urlencoded", origin: `http://localhost:${PORT}` };
  const json = { "content-type": "application/json" };

  it("answers 413 to a console form over 64 KB, declared or chunked", async () => {
    for (const chunked of [false, true]) {
      const answer = await request({ method: "POST", path: "/welcome", headers: form, bytes: 100 * 1024, chunked });
      expect(answer.status).toBe(413);
      expect(answer.body).toBe("Request body too large: at most 64 KB here.");
    }
  });

  it("answers 413 to a platform call over 64 KB and a chat over 8 MB, chunked included", async () => {
    expect((await request({ method: "POST", path: "/api/v1/organizations", headers: json, bytes: 100 * 1024 })).status).toBe(413);
    expect((await request({ method: "POST", path: "/api/v1/organizations", headers: json, bytes: 100 * 1024, chunked: true })).status).toBe(413);
    expect((await request({ method: "POST", path: "/api/v1/billing/webhook", headers: json, bytes: 100 * 1024, chunked: true })).status).toBe(413);
    const openai = await request({ method: "POST", path: "/openai/v1/chat/completions", headers: json, bytes: 9 * 1024 * 1024, chunked: true });
    expect(openai.status).toBe(413);
    expect(JSON.parse(openai.body).error.message).toBe("Request body too large: at most 8 MB here.");
    expect((await request({ method: "POST", path: "/api/v1/chat/completions", headers: json, bytes: 9 * 1024 * 1024 })).status).toBe(413);
    expect(
      (
        await request({
          method: "POST",
          path: "/resources/chat",
          headers: { ...json, origin: `http://localhost:${PORT}` },
          bytes: 9 * 1024 * 1024,
          chunked: true,
        })
      ).status,
    ).toBe(413);
  });

  it("answers a 50 MB body while it is still being sent, and the server's memory does not grow with it", async () => {
    const before = rssOf(server.pid);
    for (const [path, headers] of [
      ["/welcome", form],
      ["/api/v1/billing/webhook", json],
      ["/openai/v1/chat/completions", json],
      ["/welcome", form],
      ["/api/v1/billing/webhook", json],
    ] as const) {
      const answer = await request({ method: "POST", path, headers, bytes: 50 * 1024 * 1024, chunked: true }).catch((error: Error) => {
        throw new Error(`${path}: ${error.message}`);
      });
      expect(answer.status, `${path}: the answer`).toBe(413);
      expect(answer.sent, `${path}: bytes sent before the answer came`).toBeLessThan(50 * 1024 * 1024);
    }
    // Five 50 MB bodies: buffering any of them would show; the limits hold at most 8 MB each.
    const grown = rssOf(server.pid) - before;
    expect(grown, `the server's memory grew by ${(grown / 1024 / 1024).toFixed(1)} MB`).toBeLessThan(40 * 1024 * 1024);
  });
});

describe("idle keep-alive connections", () => {
  it("stay open longer than a proxy's idle keep-alive would expect of Node's 5 s: a request after 6 s idle reuses the connection", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; socket: Socket }>((resolve, reject) => {
        const req = http.get({ host: "127.0.0.1", port: PORT, path: "/healthz", headers: { host: `localhost:${PORT}` }, agent }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, socket: req.socket! }));
        });
        req.on("error", reject);
      });
    try {
      const first = await get();
      let closed = false;
      (first.socket as Socket).once("close", () => (closed = true));
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(closed).toBe(false);
      const second = await get();
      expect(second.status).toBe(200);
      expect(second.socket).toBe(first.socket);
    } finally {
      agent.destroy();
    }
  }, 15_000);
});

describe("a path with a malformed percent-escape", () => {
  it("is answered by the API it names, in that API's shape, and logs no stack nor the invite code it carries", async () => {
    const openai = await request({ method: "GET", path: "/openai/v1/models/%ZZ", headers: { authorization: "Bearer sk-nobody" } });
    expect(openai.status).toBe(401);
    expect(openai.headers["access-control-allow-origin"]).toBe("*");
    expect(JSON.parse(openai.body).error.type).toBe("authentication_error");
    const platform = await request({ method: "GET", path: "/api/v1/%ZZ" });
    expect(platform.status).toBe(404);
    expect(JSON.parse(platform.body)).toHaveProperty("error");
    const join = await request({ method: "POST", path: "/api/v1/auth/join/XA2ABYR8SSXD%", headers: { origin: `http://localhost:${PORT}` } });
    expect(join.status).toBeLessThan(500);
    expect(JSON.parse(join.body)).toHaveProperty("error");
    // No page has such an address: a page saying so, not Express's bare one (or a stack from Vite, a warning from Remix's router).
    const page = await request({ method: "GET", path: "/team/%ZZ" });
    expect(page.status).toBe(400);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.body).toContain("This address is not valid: part of it is not percent-encoded correctly.");
    expect(server.output()).not.toMatch(/URIError|malformed|could not be decoded|XA2ABYR8SSXD/i);
  });
});

describe("requests no page is made for", () => {
  it("answers OPTIONS with what the console takes, running nothing (a resource route's loader streamed its CSV for it)", async () => {
    for (const path of ["/audit.csv", "/usage.csv", "/team", "/"]) {
      const answer = await request({ method: "OPTIONS", path });
      expect(answer.status, path).toBe(204);
      expect(answer.headers.allow, path).toBe("GET, HEAD, POST");
      expect(answer.body, path).toBe("");
    }
  });

  it("refuses TRACE, PUT and DELETE on pages with 405 and Allow, logging no stack", async () => {
    const origin = { origin: `http://localhost:${PORT}` };
    for (const [method, path] of [
      ["TRACE", "/"],
      ["TRACE", "/login"],
      ["PUT", "/tokens"],
      ["DELETE", "/team"],
    ]) {
      const answer = await request({ method, path, headers: origin });
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.headers.allow, `${method} ${path}`).toBe("GET, HEAD, POST");
    }
    expect(server.output()).not.toMatch(/TypeError|unsupported/);
  });

  it("says what a page without an action takes when it is posted to", async () => {
    const answer = await request({
      method: "POST",
      path: "/privacy",
      headers: { origin: `http://localhost:${PORT}`, "content-type": "application/x-www-form-urlencoded" },
    });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe("GET, HEAD");
  });

  it("refuses Remix's data requests from before single fetch (?_data=) without running the route or logging an error", async () => {
    expect((await request({ method: "GET", path: "/login?_data=root" })).status).toBe(400);
    const form = { origin: `http://localhost:${PORT}`, "content-type": "application/x-www-form-urlencoded" };
    expect((await request({ method: "POST", path: "/tokens?_data=routes%2F_org.tokens", headers: form, bytes: 10 })).status).toBe(400);
    // Past the 1,000 parameters Express parses: Remix reads them all.
    const many = Array.from({ length: 1000 }, () => "a=1").join("&");
    expect((await request({ method: "GET", path: `/login?${many}&_data=root` })).status).toBe(400);
    expect((await request({ method: "POST", path: `/tokens?${many}&_data=routes%2F_org.tokens`, headers: form, bytes: 10 })).status).toBe(400);
    expect(server.output()).not.toMatch(/Single fetch|_data/);
  });

  it("takes a request target in absolute form as its path, its authority checked as the Host header is", async () => {
    const page = await request({ method: "GET", path: `http://localhost:${PORT}/login` });
    expect(page.status).toBe(200);
    expect(page.body).toContain("<html");
    expect((await request({ method: "GET", path: `http://evil.example:${PORT}/login` })).status).toBe(421);
    expect(server.output()).not.toMatch(/Invalid URL/);
  });
});
