import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { migrate, openDatabase } from "../platform/db";
import { databaseReady, platformReady, readiness } from "./readiness";
import type { ReadinessCheck } from "./readiness";

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function listen(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function readyz(check: ReadinessCheck, draining = false, timeoutMs?: number) {
  const app = express().get("/readyz", readiness({ check, draining: () => draining, timeoutMs }));
  const response = await fetch(`${await listen(app)}/readyz`);
  return { status: response.status, body: (await response.json()) as unknown };
}

describe("/readyz", () => {
  it("is 200 while the database answers, and 503 with the reason once it does not", async () => {
    const db = openDatabase({ path: ":memory:" });
    await migrate(db);
    expect(await readyz(databaseReady(db))).toEqual({ status: 200, body: { ok: true } });
    await db.destroy();
    const down = await readyz(databaseReady(db));
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ ok: false, reason: "database: not answering" });
  });

  it("is 503 when the check hangs, and while the process drains", async () => {
    expect(await readyz(() => new Promise(() => {}), false, 50)).toEqual({ status: 503, body: { ok: false, reason: "no answer within 50 ms" } });
    expect(await readyz(async () => null, true)).toEqual({ status: 503, body: { ok: false, reason: "shutting down" } });
  });

  it("with PLATFORM_URL, is 503 when the platform refuses the console's host name, answers a server error or not at all", async () => {
    let status = 200;
    const hosts: (string | undefined)[] = [];
    const platform = await listen((req, res) => {
      hosts.push(req.headers.host);
      res.writeHead(req.headers.host === "console.example.test" ? status : 421).end("{}");
    });
    expect((await readyz(platformReady(platform, "https://console.example.test"))).status).toBe(200);
    expect(hosts).toEqual(["console.example.test"]);
    // A platform whose APP_ORIGIN names another host refuses every page and sign-in of this console.
    expect(await readyz(platformReady(platform, "https://elsewhere.example.test"))).toEqual({
      status: 503,
      body: { ok: false, reason: "platform: answered 421" },
    });
    status = 503;
    expect(await readyz(platformReady(platform, "https://console.example.test"))).toEqual({
      status: 503,
      body: { ok: false, reason: "platform: answered 503" },
    });
    expect((await readyz(platformReady("http://127.0.0.1:1", "https://console.example.test"))).status).toBe(503);
  });
});
