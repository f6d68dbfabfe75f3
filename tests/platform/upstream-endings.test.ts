import http from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import type { ModelMetrics } from "@contract/models";
import type { CreatedApiToken } from "@contract/tokens";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createPlatform } from "../../platform/app";
import { creditPayment } from "../../platform/billing/ledger";
import { SHUTTING_DOWN_MESSAGE } from "../../platform/chat/service";
import type { PlatformConfig } from "../../platform/config";
import { createStreamTracker } from "../../server/shutdown";
import type { FakeUpstream } from "../fakes/openai-upstream";
import { FAKE_ANSWER_PIECES, FAKE_USAGE, startFakeUpstream } from "../fakes/openai-upstream";
import type { Harness } from "./harness";
import { createHarness } from "./harness";
import { saveFakeModels } from "./fake-models";

/** How an answer ends once its upstream has begun it: a client leaving, the server stopping, the upstream's own end. */

let fake: FakeUpstream;
let h: Harness;
let server: http.Server | undefined;

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
afterEach(async () => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
  fake.firstTokenDelayMs = 600;
  fake.delayMs = 5;
  await h?.close();
});

const UPSTREAMS = ["late-json", "echo", "thinks-first", "done-open", "streams-anyway"];

/** The platform over HTTP as the server runs it (a stop it can be told), an organization with $10, and a token's call. */
async function setup(config: Partial<PlatformConfig> = {}) {
  h = await createHarness(config);
  await saveFakeModels(h.deps, fake.url, UPSTREAMS);
  const admin = await h.admin();
  await creditPayment(h.deps, { orgId: admin.orgId, paymentIntentId: `pi_endings_${Date.now()}`, amountMicros: 10e6, description: "Test funds" });
  const stopping = new AbortController();
  const platform = createPlatform({ ...h.deps, stopping: stopping.signal });
  const streams = createStreamTracker();
  const listener = getRequestListener(async (request: Request, bindings: unknown) => streams.track(await platform.fetch(request, bindings)));
  server = http.createServer((req, res) => void listener(req, res));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/openai/v1`;
  const token = (await (await admin.call("POST", "/tokens", { scopes: ["chat"], expiresAt: null })).json()) as CreatedApiToken;
  const call = (model: string, stream: boolean, signal?: AbortSignal) =>
    fetch(`${base}/chat/completions`, {
      method: "POST",
      signal,
      headers: { authorization: `Bearer ${token.token}`, "content-type": "application/json" },
      body: JSON.stringify({ model, stream, messages: [{ role: "user", content: "Say hello" }] }),
    });
  return { admin, call, stop: () => stopping.abort() };
}

async function money(orgId: number) {
  const account = await h.deps.db
    .selectFrom("billing_accounts")
    .select(["balance_micros", "reserved_micros"])
    .where("org_id", "=", orgId)
    .executeTakeFirstOrThrow();
  const holds = await h.deps.db.selectFrom("spend_reservations").select("receipt_id").execute();
  return { balance: Number(account.balance_micros), reserved: Number(account.reserved_micros), holds: holds.length };
}

const usageRows = () => h.deps.db.selectFrom("chat_usage").select(["outcome", "completion_tokens", "cost_micros"]).execute();

/** Until the fake upstream has sent the headers of a `late-json` answer, and the platform has had time to read them. */
async function headersSent(before: number) {
  await expect.poll(() => fake.requests.filter((r) => r.model === "late-json").length).toBe(before + 1);
  await new Promise((resolve) => setTimeout(resolve, 150));
}

describe("a JSON answer given up after its upstream's headers came", () => {
  it("stops the upstream and charges nothing when the client leaves", async () => {
    const { admin, call } = await setup();
    const before = await money(admin.orgId);
    fake.firstTokenDelayMs = 1_500;
    const closed = fake.closedEarly;
    const requests = fake.requests.filter((r) => r.model === "late-json").length;
    const client = new AbortController();
    const answer = call("fake-late-json", false, client.signal).catch((error: unknown) => error);
    await headersSent(requests);
    client.abort();
    expect(await answer).toMatchObject({ name: "AbortError" });
    // The upstream is told at once, not left to generate an answer nobody reads.
    await expect.poll(() => fake.closedEarly).toBe(closed + 1);
    // Past the time the upstream would have finished: nothing charged, the hold back.
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect(await usageRows()).toEqual([]);
    expect(await money(admin.orgId)).toEqual(before);
  });

  it("answers 503 server_shutting_down when the server stops, stops the upstream and charges nothing", async () => {
    const { admin, call, stop } = await setup();
    const before = await money(admin.orgId);
    fake.firstTokenDelayMs = 1_500;
    const closed = fake.closedEarly;
    const requests = fake.requests.filter((r) => r.model === "late-json").length;
    const answer = call("fake-late-json", false);
    await headersSent(requests);
    const t0 = Date.now();
    stop();
    const response = await answer;
    expect(Date.now() - t0).toBeLessThan(1_000);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect((await response.json()).error).toMatchObject({ code: "server_shutting_down", message: SHUTTING_DOWN_MESSAGE });
    await expect.poll(() => fake.closedEarly).toBe(closed + 1);
    expect(await usageRows()).toEqual([]);
    expect(await money(admin.orgId)).toEqual(before);
  });
});

describe("a JSON answer whose upstream streams anyway, given up mid-way", () => {
  it("stops the upstream and charges nothing when the client leaves (as OpenAI's SDK does at its timeout, before each retry)", async () => {
    const { admin, call } = await setup();
    const before = await money(admin.orgId);
    // One chunk every 300 ms: the answer takes about 2 s, the client leaves after the first chunks.
    fake.delayMs = 300;
    const closed = fake.closedEarly;
    const requests = fake.requests.filter((r) => r.model === "streams-anyway").length;
    const client = new AbortController();
    const answer = call("fake-streams-anyway", false, client.signal).catch((error: unknown) => error);
    await expect.poll(() => fake.requests.filter((r) => r.model === "streams-anyway").length).toBe(requests + 1);
    await new Promise((resolve) => setTimeout(resolve, 700));
    client.abort();
    expect(await answer).toMatchObject({ name: "AbortError" });
    await expect.poll(() => fake.closedEarly).toBe(closed + 1);
    // Past the time the upstream would have finished: the client got no answer, so nothing is charged and the hold is back.
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect(await usageRows()).toEqual([]);
    expect(await money(admin.orgId)).toEqual(before);
  });
});

describe("time to first token", () => {
  it("is measured at the first output, not at an upstream's comment or empty first chunk", async () => {
    const { admin, call } = await setup();
    fake.firstTokenDelayMs = 600;
    const text = await (await call("fake-thinks-first", true)).text();
    expect(text).toContain(": PROCESSING");
    expect(text).toContain("data: [DONE]");
    const { data } = (await (await admin.call("GET", "/models/metrics")).json()) as { data: ModelMetrics[] };
    // 600 ms passed between the upstream's first bytes and its first word.
    expect(data.find((m) => m.name === "fake-thinks-first")!.lastHour.p50TtftMs).toBeGreaterThanOrEqual(500);
  });
});

describe("an upstream that sends [DONE] and keeps its connection open", () => {
  // Without the end at [DONE], each of these would wait for the limit on silence, then fail.
  const LIMIT = { upstreamTimeoutMs: 5_000 };

  it("ends the client's stream at [DONE], bills the answer completed, and lets go of the upstream", async () => {
    const { call } = await setup(LIMIT);
    const closed = fake.closedEarly;
    const t0 = Date.now();
    const response = await call("fake-done-open", true);
    const text = await response.text();
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
    expect(text).not.toContain('"error"');
    expect(text).toContain('"content":" upstream."');
    await expect.poll(() => usageRows()).toEqual([{ outcome: "completed", completion_tokens: FAKE_USAGE.completion_tokens, cost_micros: expect.any(Number) }]);
    expect((await usageRows())[0].cost_micros).toBeGreaterThan(0);
    // The upstream's request is ended, not left open until its silence limit.
    await expect.poll(() => fake.closedEarly, { timeout: 3_000 }).toBe(closed + 1);
  });

  it("answers a JSON request with the whole answer at [DONE], billed completed", async () => {
    const { admin, call } = await setup(LIMIT);
    const before = await money(admin.orgId);
    const closed = fake.closedEarly;
    const t0 = Date.now();
    const response = await call("fake-done-open", false);
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { choices: { message: { content: string }; finish_reason: string }[]; usage: unknown };
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(answer.choices[0]).toMatchObject({ message: { content: FAKE_ANSWER_PIECES.join("") }, finish_reason: "stop" });
    expect(answer.usage).toEqual(FAKE_USAGE);
    await expect.poll(() => usageRows()).toEqual([{ outcome: "completed", completion_tokens: FAKE_USAGE.completion_tokens, cost_micros: expect.any(Number) }]);
    await expect.poll(async () => (await money(admin.orgId)).balance).toBeLessThan(before.balance);
    await expect.poll(() => fake.closedEarly, { timeout: 3_000 }).toBe(closed + 1);
  });
});
