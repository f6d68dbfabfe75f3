import http from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createPlatform } from "../../platform/app";
import { creditPayment } from "../../platform/billing/ledger";
import { saveModel } from "../../platform/models/service";
import { createStreamTracker, handleShutdown } from "../../server/shutdown";
import type { FakeUpstream } from "../fakes/openai-upstream";
import { startFakeUpstream } from "../fakes/openai-upstream";
import type { Harness } from "./harness";
import { createHarness } from "./harness";

let fake: FakeUpstream;
let h: Harness;

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
afterEach(() => h?.close());

/** The server's shape (server/index.ts): the platform over HTTP, its streams tracked, a shutdown on call. */
async function serve(timeoutMs: number) {
  h = await createHarness();
  for (const upstream of ["slow", "hang"]) {
    await saveModel(h.deps, {
      name: `fake-${upstream}`,
      displayName: upstream,
      provider: "vllm",
      contextSize: 8192,
      baseUrl: fake.url,
      upstreamModel: upstream,
      rateCard: { id: `rc-${upstream}`, inputPerMillion: 1, outputPerMillion: 2 },
    });
  }
  const admin = await h.admin();
  await creditPayment(h.deps, { orgId: admin.orgId, paymentIntentId: `pi_shutdown_${Date.now()}`, amountMicros: 10e6, description: "Test funds" });
  const app = createPlatform(h.deps);
  const streams = createStreamTracker();
  const server = http.createServer(getRequestListener(async (request: Request) => streams.track(await app.fetch(request))));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let exited: (code: number) => void;
  const exit = new Promise<number>((resolve) => (exited = resolve));
  const usageAtClose: unknown[] = [];
  const { shutdown } = handleShutdown({
    servers: [server],
    streams,
    timeoutMs,
    log: () => {},
    exit: (code) => exited(code),
    // The database must outlive the metering: record what was written when it is closed.
    close: async () => void usageAtClose.push(...(await h.deps.db.selectFrom("chat_usage").selectAll().execute())),
  });
  const chat = (model: string) =>
    fetch(`${base}/api/v1/chat/completions`, {
      method: "POST",
      headers: { cookie: admin.cookie, "content-type": "application/json" },
      body: JSON.stringify({ model, stream: true, messages: [{ role: "user", content: "Say hello" }] }),
    });
  return { base, admin, shutdown, exit, chat, usageAtClose };
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
});
