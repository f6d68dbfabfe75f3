import http from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { getRequestListener } from "@hono/node-server";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { frontDoor } from "./front-door";
import { oneLineLogs } from "./request-id";

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** The front door over a handler that answers 200, with the access log written to a string. */
async function logged(): Promise<{ port: number; lines: () => string[] }> {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (d: Buffer) => (text += d.toString()));
  const app = express();
  app.use(
    frontDoor({
      draining: () => false,
      ready: async () => null,
      origins: ["https://console.example.test"],
      apiOrigins: [],
      logRequests: true,
      production: true,
      logStream: stream,
    }),
  );
  // The platform's shape (server/index.ts): a Hono listener that answers the request id it was given.
  // A completion's answer names its receipt instead (decision 0138), as /openai/v1 does.
  const platform = getRequestListener((request: Request) =>
    new URL(request.url).pathname.endsWith("/receipted")
      ? new Response("ok", { headers: { "x-request-id": "rcpt_0123456789abcdef01234567" } })
      : new Response(request.headers.get("x-request-id") ?? "none"),
  );
  app.all("/api/v1/*", (req, res) => void platform(req, res));
  app.all("*", (_req, res) => res.send("ok"));
  const server = http.createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, lines: () => text.trim().split("\n").filter(Boolean) };
}

function get(port: number, path: string, host: string, referer?: string, extra: Record<string, string> = {}): Promise<number> {
  return answer(port, path, host, referer, extra).then((res) => res.statusCode ?? 0);
}

function answer(port: number, path: string, host: string, referer?: string, extra: Record<string, string> = {}): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path, headers: { host, ...(referer && { referer }), ...extra }, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res));
    });
    req.on("error", reject);
  });
}

describe("the access log (LOG_REQUESTS)", () => {
  it("records requests refused by the host allow-list (421)", async () => {
    const { port, lines } = await logged();
    expect(await get(port, "/login", "elsewhere.example.test")).toBe(421);
    await new Promise((r) => setTimeout(r, 20));
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).toMatch(/"GET \/login HTTP\/1.1" 421 /);
  });

  it("never writes an invite code, an OAuth code or state", async () => {
    const { port, lines } = await logged();
    const host = "console.example.test";
    await get(port, "/api/v1/auth/join/SECRETINVITE", host);
    await get(port, "/api/v1/auth/google/callback?code=OAUTHCODE&state=OAUTHSTATE", host, "https://console.example.test/x?code=REFCODE");
    await new Promise((r) => setTimeout(r, 20));
    const text = lines().join("\n");
    for (const secret of ["SECRETINVITE", "OAUTHCODE", "OAUTHSTATE", "REFCODE"]) expect(text).not.toContain(secret);
    expect(text).toContain("/api/v1/auth/join/SECR…");
    expect(text).toContain("/api/v1/auth/google/callback?code=[redacted]&state=[redacted]");
    expect(text).toContain('"https://console.example.test/x?code=[redacted]"');
  });

  it("never writes a Stripe client secret, from the page's address or the Referer of what it loads next", async () => {
    const { port, lines } = await logged();
    const host = "console.example.test";
    const back = "/billing?setup_intent=seti_1Abc&setup_intent_client_secret=seti_1Abc_secret_SETUPSECRET&redirect_status=succeeded";
    await get(port, back, host);
    await get(port, "/api/v1/billing/ledger", host, `https://console.example.test${back.replace("SETUPSECRET", "REFSECRET")}`);
    await get(port, "/billing?payment_intent=pi_1&payment_intent_client_secret=pi_1_secret_PAYSECRET", host);
    await new Promise((r) => setTimeout(r, 20));
    const text = lines().join("\n");
    for (const secret of ["SETUPSECRET", "REFSECRET", "PAYSECRET"]) expect(text).not.toContain(secret);
    expect(text).toContain('"GET /billing?setup_intent=seti_1Abc&setup_intent_client_secret=[redacted]&redirect_status=succeeded HTTP/1.1"');
    expect(text).toContain('"https://console.example.test/billing?setup_intent=seti_1Abc&setup_intent_client_secret=[redacted]&redirect_status=succeeded"');
  });

  it("never writes an API key sent in the query or as Basic auth's user name", async () => {
    const { port, lines } = await logged();
    const host = "console.example.test";
    const key = "sk-j_n6XIMKW1u407Dxyicja08tlk-CXXxPDArfic8DRH0";
    await get(port, `/openai/v1/models?api_key=${key}`, host);
    await get(port, "/openai/v1/models", host, undefined, { authorization: `Basic ${Buffer.from(`${key}:`).toString("base64")}` });
    await get(port, "/openai/v1/models", host, `https://app.example.test/x?api_key=${key}`);
    await new Promise((r) => setTimeout(r, 20));
    const text = lines().join("\n");
    expect(text).not.toContain(key.slice(3));
    expect(text).toContain('"GET /openai/v1/models?api_key=[redacted] HTTP/1.1"');
    expect(text).toContain('"https://app.example.test/x?api_key=[redacted]"');
  });

  it("ends each line with the request's id, which the answer names too: the proxy's when it is a plain token", async () => {
    const { port, lines } = await logged();
    const host = "console.example.test";
    const own = await answer(port, "/team", host);
    const proxied = await answer(port, "/team", host, undefined, { "x-request-id": "nginx-7f3a9c" });
    const forged = await answer(port, "/team", host, undefined, { "x-request-id": 'x" 200 "forged' });
    await new Promise((r) => setTimeout(r, 20));
    const id = own.headers["x-request-id"] as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(proxied.headers["x-request-id"]).toBe("nginx-7f3a9c");
    expect(forged.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines().map((line) => line.split(" ").at(-1))).toEqual([id, "nginx-7f3a9c", forged.headers["x-request-id"]]);
  });

  it("ends a line with the id the answer names when the platform answers another (a completion's receipt)", async () => {
    const { port, lines } = await logged();
    const receipted = await answer(port, "/api/v1/receipted", "console.example.test", undefined, { "x-request-id": "nginx-7f3a9c" });
    await new Promise((r) => setTimeout(r, 20));
    expect(receipted.headers["x-request-id"]).toBe("rcpt_0123456789abcdef01234567");
    expect(lines().at(-1)!.split(" ").at(-1)).toBe("rcpt_0123456789abcdef01234567");
  });

  it("gives the platform the same id, so an error it logs names the request the access log names", async () => {
    const { port } = await logged();
    const host = "console.example.test";
    for (const extra of [{}, { "x-request-id": "nginx-7f3a9c" }, { "x-request-id": 'x" 200 "forged' }]) {
      const { id, body } = await new Promise<{ id: unknown; body: string }>((resolve, reject) => {
        const req = http.get({ host: "127.0.0.1", port, path: "/api/v1/billing/balance", headers: { host, ...extra }, agent: false }, (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => (body += chunk.toString()));
          res.on("end", () => resolve({ id: res.headers["x-request-id"], body }));
        });
        req.on("error", reject);
      });
      expect(body).toBe(id);
    }
  });

  it("leaves the health checks out", async () => {
    const { port, lines } = await logged();
    expect(await get(port, "/healthz", "127.0.0.1")).toBe(200);
    expect(await get(port, "/readyz", "127.0.0.1")).toBe(200);
    await new Promise((r) => setTimeout(r, 20));
    expect(lines()).toEqual([]);
  });
});

describe("one-line logs (production)", () => {
  it("writes an error's stack, and any message of several lines, as one line", () => {
    const written: string[] = [];
    const target: Pick<Console, "error" | "warn"> = { error: (line: string) => written.push(line), warn: (line: string) => written.push(line) };
    oneLineLogs(target);
    target.error("Unhandled error in GET /x (request abc):", new Error("boom"));
    target.warn("first\nsecond");
    expect(written).toHaveLength(2);
    expect(written[0]).toMatch(/^Unhandled error in GET \/x \(request abc\): Error: boom ⏎ at /);
    expect(written[0]).not.toContain("\n");
    expect(written[1]).toBe("first ⏎ second");
  });
});
