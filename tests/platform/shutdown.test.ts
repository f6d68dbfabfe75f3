import http from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createPlatform } from "../../platform/app";
import { creditPayment } from "../../platform/billing/ledger";
import { SHUTTING_DOWN_MESSAGE } from "../../platform/chat/service";
import { mountEmbedded } from "../../server/platform";
import { createStreamTracker, handleShutdown } from "../../server/shutdown";
import type { FakeUpstream } from "../fakes/openai-upstream";
import { startFakeUpstream } from "../fakes/openai-upstream";
import type { Harness } from "./harness";
import { createHarness } from "./harness";
import { saveFakeModels } from "./fake-models";

let fake: FakeUpstream;
let h: Harness;

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
afterEach(() => h?.close());

/** A platform with priced models on the fake upstream's `slow`, `hang`, `slow-first` and `streams-anyway`, and an admin with $10. */
async function platformWithModels() {
  h = await createHarness();
  await saveFakeModels(h.deps, fake.url, ["slow", "hang", "slow-first", "streams-anyway"], { contextSize: 8192 });
  const admin = await h.admin();
  await creditPayment(h.deps, { orgId: admin.orgId, paymentIntentId: `pi_shutdown_${Date.now()}`, amountMicros: 10e6, description: "Test funds" });
  return admin;
}

const chatBody = (model: string, stream: boolean) => JSON.stringify({ model, stream, messages: [{ role: "user", content: "Say hello" }] });

/** The server's shape (server/index.ts): the platform over HTTP, its streams tracked, a shutdown on call. */
async function serve(timeoutMs: number) {
  const admin = await platformWithModels();
  // What the server does (server/platform.ts): requests still awaiting an answer give up when it stops.
  const stopping = new AbortController();
  const app = createPlatform({ ...h.deps, stopping: stopping.signal });
  const streams = createStreamTracker();
  const server = http.createServer(getRequestListener(async (request: Request) => streams.track(await app.fetch(request))));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let exited: (code: number) => void;
  const exit = new Promise<number>((resolve) => (exited = resolve));
  const usageAtClose: unknown[] = [];
  const holdsAtClose: unknown[] = [];
  const { shutdown } = handleShutdown({
    servers: [server],
    streams,
    stopRequests: () => stopping.abort(),
    timeoutMs,
    log: () => {},
    exit: (code) => exited(code),
    // The database must outlive the metering: record what was written when it is closed.
    close: async () => {
      usageAtClose.push(...(await h.deps.db.selectFrom("chat_usage").selectAll().execute()));
      holdsAtClose.push(...(await h.deps.db.selectFrom("spend_reservations").selectAll().execute()));
    },
  });
  const chat = (model: string, stream = true) =>
    fetch(`${base}/api/v1/chat/completions`, {
      method: "POST",
      headers: { cookie: admin.cookie, "content-type": "application/json" },
      body: chatBody(model, stream),
    });
  return { base, admin, shutdown, exit, chat, usageAtClose, holdsAtClose };
}

async function firstChunk(response: Response) {
  const reader = response.body!.getReader();
  const first = await reader.read();
  expect(first.done).toBe(false);
  return reader;
}

async function rest(reader: ReadableStreamDefaultReader<Uint8Array>) {
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += new TextDecoder().decode(value);
  }
}

describe("graceful shutdown (SIGTERM, SIGINT)", () => {
  it("stops accepting, lets a running stream finish, meters it, closes the database and exits 0", async () => {
    const s = await serve(10_000);
    const reader = await firstChunk(await s.chat("fake-slow"));
    const stopping = s.shutdown("SIGTERM");
    await expect(fetch(`${s.base}/api/v1/auth/session`)).rejects.toThrow();
    expect(await rest(reader)).toContain("data: [DONE]");
    expect(await s.exit).toBe(0);
    await stopping;
    expect(s.usageAtClose).toEqual([expect.objectContaining({ model: "fake-slow", outcome: "completed" })]);
  });

  it("stops a stream still running at the deadline, meters what was sent, then exits 0", async () => {
    const s = await serve(300);
    const reader = await firstChunk(await s.chat("fake-hang"));
    const t0 = Date.now();
    void s.shutdown("SIGINT");
    // The client is told why, and sees the reply end (not break) once the drain time is over.
    expect(await rest(reader)).toContain('"code":"server_shutting_down"');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    expect(await s.exit).toBe(0);
    expect(s.usageAtClose).toEqual([expect.objectContaining({ model: "fake-hang", outcome: "stopped", estimated: 1 })]);
    const ledger = (await (await s.admin.call("GET", "/billing/ledger")).json()) as { description: string; model: string | null }[];
    expect(ledger.find((e) => e.model === "fake-hang")?.description).toMatch(/stopped/);
  });

  it("answers a JSON request still waiting for its upstream at the deadline 503, and releases its hold before the database closes", async () => {
    const s = await serve(300);
    fake.firstTokenDelayMs = 30_000;
    try {
      const answer = s.chat("fake-slow-first", false);
      // The request is held and forwarded before the stop begins.
      await expect.poll(() => fake.requests.filter((r) => r.model === "slow-first").length).toBe(1);
      void s.shutdown("SIGTERM");
      const response = await answer;
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("1");
      expect((await response.json()).error).toMatchObject({ code: "server_shutting_down", message: SHUTTING_DOWN_MESSAGE });
      expect(await s.exit).toBe(0);
      expect(s.holdsAtClose).toEqual([]);
      expect(s.usageAtClose).toEqual([]);
    } finally {
      fake.firstTokenDelayMs = 600;
    }
  });
});

describe("a JSON request given up at the deadline", () => {
  it("is not charged when its upstream was streaming it: the client got nothing and is told to try again", async () => {
    const s = await serve(300);
    fake.delayMs = 200;
    try {
      const answer = s.chat("fake-streams-anyway", false);
      // Forwarded, and the upstream's stream under way, when the stop begins.
      await expect.poll(() => fake.requests.filter((r) => r.model === "streams-anyway").length).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 250));
      void s.shutdown("SIGTERM");
      const response = await answer;
      expect(response.status).toBe(503);
      expect((await response.json()).error).toMatchObject({ code: "server_shutting_down" });
      expect(await s.exit).toBe(0);
      expect(s.holdsAtClose).toEqual([]);
      expect(s.usageAtClose).toEqual([]);
    } finally {
      fake.delayMs = 5;
    }
  });
});

describe("the embedded platform's close", () => {
  it("ends a request still waiting for its upstream, and closes the database only after its hold is released", async () => {
    const admin = await platformWithModels();
    const mounted = mountEmbedded(h.deps.db, h.deps.config);
    // What is held when the database closes (the harness's own close comes later).
    let holdsAtClose: unknown[] | undefined;
    const destroy = h.deps.db.destroy.bind(h.deps.db);
    h.deps.db.destroy = async () => {
      holdsAtClose ??= await h.deps.db.selectFrom("spend_reservations").selectAll().execute();
      await destroy();
    };
    fake.firstTokenDelayMs = 30_000;
    try {
      const answer = mounted.fetch(
        new Request("http://localhost/api/v1/chat/completions", {
          method: "POST",
          headers: { cookie: admin.cookie, "content-type": "application/json" },
          body: chatBody("fake-slow-first", false),
        }),
      );
      await expect.poll(() => fake.requests.filter((r) => r.model === "slow-first").length).toBe(1);
      await mounted.close();
      expect(holdsAtClose).toEqual([]);
      const response = await answer;
      expect(response.status).toBe(503);
      expect((await response.json()).error.code).toBe("server_shutting_down");
    } finally {
      fake.firstTokenDelayMs = 600;
    }
  });
});
