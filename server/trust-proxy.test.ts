import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnServer } from "./testing/spawned-server";
import type { SpawnedServer } from "./testing/spawned-server";

/**
 * The server as it runs, told to trust one proxy at 127.0.0.2 (TRUST_PROXY). Loopback is one range on
 * Linux, so requests can come from 127.0.0.2 (the proxy) or 127.0.0.3 (anyone else) to 127.0.0.1.
 * What shows whose address the platform counted: sign-in starts are limited to 20 a minute per client
 * address, and in development sign-in mode a loopback address is not counted at all (decision 0083).
 */
const PORT = Number(process.env.TRUST_PROXY_TEST_PORT ?? 4002);
const PROXY = "127.0.0.2";
const STRANGER = "127.0.0.3";
let server: SpawnedServer;

beforeAll(async () => {
  server = await spawnServer(PORT, { HOST: "127.0.0.1", TRUST_PROXY: PROXY });
}, 90_000);

afterAll(() => server?.stop());

/** Starts a Google sign-in from `from`, saying (in X-Forwarded-For) it is on behalf of `client`; the answer's status. */
function signinStart(from: string, client?: string): Promise<number> {
  const headers: Record<string, string> = { host: `localhost:${PORT}`, ...(client && { "x-forwarded-for": client }) };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", localAddress: from, port: PORT, path: "/api/v1/auth/google", headers, agent: false });
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

async function statuses(count: number, from: string, client: string): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < count; i++) seen.push(await signinStart(from, client));
  return seen;
}

describe("the client's address behind the proxy TRUST_PROXY names", () => {
  it("counts the address the trusted proxy forwards, per client", async () => {
    const first = await statuses(21, PROXY, "203.0.113.50");
    expect(first.slice(0, 20).every((s) => s === 302)).toBe(true);
    expect(first[20]).toBe(429);
    // Another browser behind the same proxy is not held back by the first one.
    expect(await signinStart(PROXY, "203.0.113.51")).toBe(302);
  });

  it("ignores the address anyone else writes in X-Forwarded-For", async () => {
    // Counted as 203.0.113.60 this would be refused at the 21st; counted as its own loopback address it never is.
    expect(new Set(await statuses(25, STRANGER, "203.0.113.60"))).toEqual(new Set([302]));
  });
});
