import http from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import OpenAI from "openai";
import type { CreatedApiToken } from "@contract/tokens";
import type { ModelMetrics, ModelStatus } from "@contract/models";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createPlatform } from "../../platform/app";
import { creditPayment } from "../../platform/billing/ledger";
import { fitToShow } from "../../platform/chat/upstream-text";
import type { PlatformConfig } from "../../platform/config";
import { clearStatusCache, saveModel } from "../../platform/models/service";
import { createStreamTracker } from "../../server/shutdown";
import type { FakeUpstream } from "../fakes/openai-upstream";
import { FAKE_ANSWER_PIECES, FAKE_USAGE, startFakeUpstream, UPSTREAM_KEY } from "../fakes/openai-upstream";
import type { Harness } from "./harness";
import { closedPort } from "./closed-port";
import { createHarness } from "./harness";
import { saveFakeModels } from "./fake-models";

let fake: FakeUpstream;
let h: Harness;
let server: http.Server | undefined;

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
// Awaited: a PostgreSQL run drops the test's database here, and the file's last test would leave it behind otherwise.
afterEach(async () => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
  await h?.close();
});

const UPSTREAMS = [
  "server-error",
  "html-error",
  "missing",
  "not-json",
  "cut-json",
  "error-200",
  "json-anyway",
  "mid-error",
  "cut-short",
  "malformed",
  "echo",
  "bad-request",
  "unprocessable",
  "too-large",
  "bad-key",
  "forbidden",
  "rate-limited",
  "out-of-quota",
  "out-of-credit",
  "provider-timeout",
  "conflict",
  "warming",
  "hang",
  "broken",
  "hang-headers",
  "silent-json",
];

/** What no client may read: the platform's upstream key and the provider's internal addresses. */
function expectNothingInternal(text: string) {
  for (const secret of [UPSTREAM_KEY, "10.20.30.40", "gpu-node-7", "<html"]) expect(text).not.toContain(secret);
}

/** The platform over HTTP as the server runs it, an organization with $10, and OpenAI's client with its token. */
async function setup(config: Partial<PlatformConfig> = {}, now?: () => number) {
  h = await createHarness(config, now);
  await saveFakeModels(h.deps, fake.url, UPSTREAMS);
  await saveModel(h.deps, {
    name: "fake-down",
    displayName: "down",
    provider: "vllm",
    contextSize: 32768,
    baseUrl: `http://127.0.0.1:${await closedPort()}/v1`,
    upstreamModel: "echo",
  });
  const admin = await h.admin();
  await creditPayment(h.deps, { orgId: admin.orgId, paymentIntentId: `pi_failures_${Date.now()}`, amountMicros: 10e6, description: "Test funds" });
  const platform = createPlatform(h.deps);
  const streams = createStreamTracker();
  const listener = getRequestListener(async (request: Request, bindings: unknown) => streams.track(await platform.fetch(request, bindings)));
  server = http.createServer((req, res) => void listener(req, res));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/openai/v1`;
  const token = (await (await admin.call("POST", "/tokens", { scopes: ["chat"], expiresAt: null })).json()) as CreatedApiToken;
  const call = (model: string, stream: boolean) =>
    fetch(`${base}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${token.token}`, "content-type": "application/json" },
      body: JSON.stringify({ model, stream, messages: [{ role: "user", content: "Say hello" }] }),
    });
  return { admin, call, openai: new OpenAI({ baseURL: base, apiKey: token.token, maxRetries: 0 }) };
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

async function outcomeOf(response: Response) {
  const id = response.headers.get("x-receipt-id");
  for (let i = 0; i < 50; i++) {
    const row = await h.deps.db.selectFrom("chat_usage").select(["outcome", "completion_tokens"]).where("receipt_id", "=", id!).executeTakeFirst();
    if (row) return row;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no usage row for ${id}`);
}

describe("an upstream that fails says nothing of its own to the client (decision 0107)", () => {
  it("answers a provider's errors with the platform's words, charging and holding nothing", async () => {
    const { admin, call } = await setup();
    const before = await money(admin.orgId);
    const cases: [string, number, string][] = [
      ["fake-server-error", 502, "The model 'fake-server-error' failed to answer (its provider answered 500). Try again."],
      ["fake-html-error", 502, "The model 'fake-html-error' failed to answer (its provider answered 502). Try again."],
      ["fake-missing", 502, "The model 'fake-missing' is not available from its provider"],
    ];
    for (const [model, status, message] of cases) {
      for (const stream of [false, true]) {
        const response = await call(model, stream);
        const text = await response.text();
        expect(response.status, model).toBe(status);
        expect(JSON.parse(text).error.message, model).toBe(message);
        expectNothingInternal(text);
      }
    }
    expect(await money(admin.orgId)).toEqual(before);
  });

  it("answers a provider's 402, 408 and other 4xx as its own failure, not the client's request, its words only in the log", async () => {
    const { admin, call } = await setup();
    const before = await money(admin.orgId);
    const logged: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    try {
      const cases: [string, number, string, string, "false" | null][] = [
        [
          "fake-out-of-credit",
          502,
          "upstream_error",
          "The model 'fake-out-of-credit' is not available: its provider's account for this platform is out of credit",
          // Asking again cannot help until the operator pays: OpenAI's SDKs are told not to retry.
          "false",
        ],
        [
          "fake-provider-timeout",
          504,
          "upstream_timeout",
          "The model 'fake-provider-timeout' did not answer in time (its provider answered 408). Try again, or ask for a shorter answer.",
          null,
        ],
        ["fake-conflict", 502, "upstream_error", "The model 'fake-conflict' failed to answer (its provider answered 409). Try again.", null],
      ];
      for (const [model, status, code, message, shouldRetry] of cases) {
        for (const stream of [false, true]) {
          const response = await call(model, stream);
          const text = await response.text();
          expect(response.status, model).toBe(status);
          expect(response.headers.get("x-should-retry"), model).toBe(shouldRetry);
          // The id the client is answered (OpenAI's SDK shows it as _request_id) is the one the log names.
          const id = response.headers.get("x-request-id") ?? "";
          expect(id, model).toMatch(/^rcpt_[0-9a-f]{24}$/);
          expect(
            logged.filter((line) => line.includes(id)),
            model,
          ).toHaveLength(1);
          expect(JSON.parse(text).error, model).toEqual({ message, type: "server_error", param: null, code });
          expect(text).not.toContain("openrouter.ai");
          expectNothingInternal(text);
        }
      }
    } finally {
      spy.mockRestore();
    }
    // The operator reads the provider's words, keys cut, with the receipt the client was answered as its request id.
    expect(logged.find((line) => line.includes("fake-out-of-credit"))).toMatch(/answered 402 to rcpt_\w+: Insufficient credits for key \[redacted\]/);
    expect(logged.join("\n")).not.toContain(UPSTREAM_KEY);
    expect(await money(admin.orgId)).toEqual(before);
  });

  it("refuses a 200 that is no completion (a page, cut-off JSON, an error) with 502, charging nothing", async () => {
    const { admin, call } = await setup();
    const before = await money(admin.orgId);
    for (const model of ["fake-not-json", "fake-cut-json", "fake-error-200"]) {
      for (const stream of [false, true]) {
        const response = await call(model, stream);
        const text = await response.text();
        expect(response.status, model).toBe(502);
        expect(JSON.parse(text).error).toMatchObject({
          message: `The model '${model}' sent an answer that could not be read. Try again.`,
          code: "upstream_invalid_response",
        });
        expectNothingInternal(text);
      }
    }
    expect(await money(admin.orgId)).toEqual(before);
  });

  it("ends a stream whose upstream sent an error mid-way with its own error event, billing what was sent", async () => {
    const { admin, call, openai } = await setup();
    const response = await call("fake-mid-error", true);
    const text = await response.text();
    expect(text).toContain('"content":"Hello"');
    expect(text).toContain('"code":"upstream_stream_interrupted"');
    expect(text).not.toContain("[DONE]");
    expectNothingInternal(text);
    expect(await outcomeOf(response)).toMatchObject({ outcome: "failed", completion_tokens: 1 });

    // OpenAI's client throws it, with the platform's message.
    const stream = await openai.chat.completions.create({ model: "fake-mid-error", messages: [{ role: "user", content: "Hi" }], stream: true });
    const read = (async () => {
      for await (const chunk of stream) void chunk;
    })();
    await expect(read).rejects.toThrow("The model 'fake-mid-error' broke off its answer before it was complete. Try again.");
    await expect.poll(() => money(admin.orgId).then((m) => [m.reserved, m.holds])).toEqual([0, 0]);
  });

  it("charges nothing, not even the prompt, for a stream that broke before any output (audit N L7)", async () => {
    const { admin, call } = await setup();
    const before = await money(admin.orgId);
    const entries = async () => (await h.deps.db.selectFrom("ledger_entries").select("id").where("org_id", "=", admin.orgId).execute()).length;
    const ledgerBefore = await entries();
    const response = await call("fake-broken", true);
    const text = await response.text();
    expect(text).toContain('"code":"upstream_stream_interrupted"');
    const id = response.headers.get("x-receipt-id")!;
    await expect
      .poll(() =>
        h.deps.db
          .selectFrom("chat_usage")
          .select(["outcome", "prompt_tokens", "completion_tokens", "cost_micros"])
          .where("receipt_id", "=", id)
          .executeTakeFirst(),
      )
      .toEqual({ outcome: "failed", prompt_tokens: expect.any(Number), completion_tokens: 0, cost_micros: 0 });
    expect(await money(admin.orgId)).toEqual(before);
    expect(await entries()).toBe(ledgerBefore);

    // One token out, and the answer is charged what was sent, prompt included.
    const cut = await call("fake-cut-short", true);
    await cut.text();
    expect(await outcomeOf(cut)).toMatchObject({ outcome: "failed", completion_tokens: 1 });
    await expect.poll(async () => (await money(admin.orgId)).balance).toBeLessThan(before.balance);
  });

  it("tells the client a stream that ended without [DONE] was cut short", async () => {
    const { call } = await setup();
    const response = await call("fake-cut-short", true);
    const text = await response.text();
    expect(text).toContain('"content":"Hello"');
    expect(text.trim().split("\n\n").at(-1)).toContain('"code":"upstream_stream_interrupted"');
    expect(await outcomeOf(response)).toMatchObject({ outcome: "failed" });
  });

  it("answers a JSON request whose upstream streamed and broke off with 502, not a partial answer, and charges nothing", async () => {
    const { admin, call } = await setup();
    const before = await money(admin.orgId);
    const response = await call("fake-cut-short", false);
    expect(response.status).toBe(502);
    expect((await response.json()).error).toMatchObject({ code: "upstream_stream_interrupted" });
    expect(await money(admin.orgId)).toEqual(before);
  });

  it("relays only chunks a client's loop can read, and the whole answer", async () => {
    const { call, openai } = await setup();
    const text = await (await call("fake-malformed", true)).text();
    const data = text
      .split("\n\n")
      .filter((event) => event.startsWith("data: ") && event !== "data: [DONE]")
      .map((event) => JSON.parse(event.slice(6)) as { choices?: unknown });
    expect(data.length).toBeGreaterThan(0);
    for (const chunk of data) expect(Array.isArray(chunk.choices)).toBe(true);
    expect(text).toContain("data: [DONE]");

    let answer = "";
    const stream = await openai.chat.completions.create({ model: "fake-malformed", messages: [{ role: "user", content: "Hi" }], stream: true });
    for await (const chunk of stream) answer += chunk.choices[0]?.delta?.content ?? "";
    expect(answer).toBe(FAKE_ANSWER_PIECES.join(""));
  });

  it("streams an answer the upstream sent as JSON when the client asked for a stream, and bills it", async () => {
    const { openai } = await setup();
    const chunks = [];
    const stream = await openai.chat.completions.create({
      model: "fake-json-anyway",
      messages: [{ role: "user", content: "Hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("")).toBe(FAKE_ANSWER_PIECES.join(""));
    expect(chunks.map((c) => c.choices[0]?.finish_reason).filter(Boolean)).toEqual(["stop"]);
    expect(chunks.at(-1)).toMatchObject({ model: "fake-json-anyway", choices: [], usage: { completion_tokens: FAKE_USAGE.completion_tokens } });
    await expect
      .poll(async () => (await h.deps.db.selectFrom("chat_usage").select(["outcome", "completion_tokens"]).execute()).at(-1))
      .toEqual({ outcome: "completed", completion_tokens: FAKE_USAGE.completion_tokens });
  });
});

describe("an upstream's message shown to a client", () => {
  it("keeps what is about the request, without keys, addresses or markup", () => {
    expect(fitToShow("max_tokens must be at most 4096")).toBe("max_tokens must be at most 4096");
    expect(fitToShow(`Invalid key ${UPSTREAM_KEY} at https://10.1.2.3:8000/v1/chat, node gpu-7.cluster.local:8000, host 10.0.0.7`)).toBe(
      "Invalid key [redacted] at [address] node [address], host [address]",
    );
    expect(fitToShow("<html><body>502 Bad Gateway</body></html>")).toBeNull();
    // Other providers' keys too.
    for (const key of ["gsk_8fJ2kLm9QpX4rT7vW1yZ", "xai-Ab12Cd34Ef56Gh78", "hf_AbCdEfGhIjKlMnOp", "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUv"]) {
      expect(fitToShow(`API key ${key} is invalid`), key).toBe("API key [redacted] is invalid");
    }
    expect(fitToShow("skip the max_tokens, the AIza model and hf_x")).toBe("skip the max_tokens, the AIza model and hf_x");
  });
});

/** What a client reads of a refusal: its status and OpenAI's error object. */
async function refusal(response: Response) {
  const text = await response.text();
  return { status: response.status, error: (JSON.parse(text) as { error: Record<string, unknown> }).error };
}

describe("an upstream that does not answer in time (audit N, M7)", () => {
  const LIMIT = { upstreamTimeoutMs: 300 };

  it("answers 504 upstream_timeout when no first byte comes within the limit, holding and charging nothing", async () => {
    const { admin, call, openai } = await setup(LIMIT);
    const before = await money(admin.orgId);
    for (const stream of [false, true]) {
      expect(await refusal(await call("fake-hang-headers", stream))).toEqual({
        status: 504,
        error: {
          message: "The model 'fake-hang-headers' did not start answering within 0.3 s. Try again, or ask for a shorter answer.",
          type: "server_error",
          param: null,
          code: "upstream_timeout",
        },
      });
    }
    // OpenAI's client reads it as a server error (and, with its retries on, would try again).
    const failed = await openai.chat.completions.create({ model: "fake-hang-headers", messages: [{ role: "user", content: "Hi" }] }).catch((e: unknown) => e);
    expect(failed).toMatchObject({ status: 504, type: "server_error", code: "upstream_timeout" });
    expect(await money(admin.orgId)).toEqual(before);
    expect(await h.deps.db.selectFrom("chat_usage").select("id").execute()).toEqual([]);
  });

  it("answers 504 when a JSON answer's body never comes, and ends a stream that falls silent with an upstream_timeout event", async () => {
    const { admin, call } = await setup(LIMIT);
    const before = await money(admin.orgId);
    expect(await refusal(await call("fake-silent-json", false))).toMatchObject({
      status: 504,
      error: { message: "The model 'fake-silent-json' stopped answering: nothing came for 0.3 s. Try again.", type: "server_error", code: "upstream_timeout" },
    });
    expect(await money(admin.orgId)).toEqual(before);

    // A stream has its 200 already: its end says why, and what was sent is billed as failed.
    const response = await call("fake-hang", true);
    expect(response.status).toBe(200);
    const text = await response.text();
    const last = JSON.parse(text.trim().split("\n\n").at(-1)!.slice("data: ".length)) as { error: Record<string, unknown> };
    expect(last.error).toEqual({
      message: "The model 'fake-hang' stopped answering: nothing came for 0.3 s. Try again.",
      type: "server_error",
      param: null,
      code: "upstream_timeout",
    });
    expect(await outcomeOf(response)).toMatchObject({ outcome: "failed" });
    await expect.poll(() => money(admin.orgId).then((m) => [m.reserved, m.holds])).toEqual([0, 0]);
  });
});

describe("error types and codes like OpenAI's (audit N, L6)", () => {
  it("answers server_error with a code for every failure on the model's side; the client's own stay invalid_request_error", async () => {
    const { call } = await setup();
    await saveModel(h.deps, { name: "fake-maintained", displayName: "m", provider: "vllm", contextSize: 8192, baseUrl: fake.url, status: "maintenance" });
    const cases: [string, number, string, string | null][] = [
      ["fake-server-error", 502, "server_error", "upstream_error"],
      ["fake-html-error", 502, "server_error", "upstream_error"],
      ["fake-missing", 502, "server_error", "upstream_error"],
      ["fake-bad-key", 502, "server_error", "upstream_error"],
      ["fake-forbidden", 502, "server_error", "upstream_error"],
      ["fake-down", 502, "server_error", "upstream_unreachable"],
      ["fake-not-json", 502, "server_error", "upstream_invalid_response"],
      ["fake-cut-short", 502, "server_error", "upstream_stream_interrupted"],
      ["fake-warming", 503, "server_error", "upstream_unavailable"],
      ["fake-maintained", 503, "server_error", "model_under_maintenance"],
      ["fake-rate-limited", 429, "rate_limit_exceeded", "rate_limit_exceeded"],
      // The platform's own account out of credit: not a rate limit for the client to wait out.
      ["fake-out-of-quota", 502, "server_error", "upstream_error"],
      ["fake-bad-request", 400, "invalid_request_error", null],
      ["fake-unprocessable", 400, "invalid_request_error", null],
      ["fake-too-large", 400, "invalid_request_error", null],
      ["fake-out-of-credit", 502, "server_error", "upstream_error"],
      ["fake-provider-timeout", 504, "server_error", "upstream_timeout"],
      ["fake-conflict", 502, "server_error", "upstream_error"],
    ];
    for (const [model, status, type, code] of cases) {
      expect(await refusal(await call(model, false)), model).toMatchObject({ status, error: { type, code } });
    }
    // What asking again cannot change until the operator acts is not retried by OpenAI's SDKs; the rest may be.
    const final = new Set(["fake-missing", "fake-bad-key", "fake-forbidden", "fake-out-of-quota", "fake-out-of-credit", "fake-maintained"]);
    for (const [model] of cases) {
      expect((await call(model, false)).headers.get("x-should-retry"), model).toBe(final.has(model) ? "false" : null);
    }
  });
});

describe("reliability figures and status from real traffic (audit N, L4 and M6)", () => {
  async function lastHour(admin: { call: (method: string, path: string) => Promise<Response> }) {
    const { data } = (await (await admin.call("GET", "/models/metrics")).json()) as { data: ModelMetrics[] };
    return Object.fromEntries(data.map((m) => [m.name, m.lastHour]));
  }

  it("counts the model's failures as errors, and the client's own faults not", async () => {
    const { admin, call } = await setup({ upstreamTimeoutMs: 300 });
    const requests: [string, boolean][] = [
      ["fake-echo", true],
      ["fake-echo", false],
      ["fake-json-anyway", true],
      ["fake-bad-request", false],
      ["fake-unprocessable", false],
      ["fake-too-large", true],
      ["fake-bad-key", false],
      ["fake-forbidden", false],
      ["fake-missing", true],
      ["fake-server-error", false],
      ["fake-down", false],
      ["fake-not-json", false],
      ["fake-cut-json", true],
      ["fake-error-200", false],
      ["fake-cut-short", true],
      ["fake-cut-short", false],
      ["fake-mid-error", true],
      ["fake-hang-headers", false],
      ["fake-silent-json", false],
      ["fake-rate-limited", false],
      ["fake-warming", false],
    ];
    for (const [model, stream] of requests) await (await call(model, stream)).arrayBuffer();
    const figures = await lastHour(admin);
    const errorsOf = (model: string) => [figures[model].requests, figures[model].errors];
    // Answered: no error, whatever the client was told.
    for (const model of ["fake-json-anyway", "fake-bad-request", "fake-unprocessable", "fake-too-large"]) expect(errorsOf(model), model).toEqual([1, 0]);
    expect(errorsOf("fake-echo")).toEqual([2, 0]);
    // The model's (or its operator's) failures: every one an error, unreadable 200s and cut-short answers included.
    for (const model of ["fake-bad-key", "fake-forbidden", "fake-missing", "fake-server-error", "fake-down", "fake-not-json", "fake-cut-json"])
      expect(errorsOf(model), model).toEqual([1, 1]);
    for (const model of ["fake-error-200", "fake-mid-error", "fake-hang-headers", "fake-silent-json"]) expect(errorsOf(model), model).toEqual([1, 1]);
    expect(errorsOf("fake-cut-short")).toEqual([2, 2]);
    // Out of capacity, as decision 0086 counts them.
    expect(errorsOf("fake-rate-limited")).toEqual([1, 1]);
    expect(errorsOf("fake-warming")).toEqual([1, 1]);
  });

  it("counts a provider account out of quota as the model's failure, not a rate limit: five of them show it offline", async () => {
    let clock = Date.now();
    const { admin, call } = await setup({}, () => clock);
    const status = async () => {
      clearStatusCache(h.deps.db);
      return ((await (await admin.call("GET", "/models/status")).json()) as Record<string, ModelStatus>)["fake-out-of-quota"];
    };
    expect(await status()).toBe("online");
    clock += 10 * 60_000;
    for (let i = 0; i < 5; i++) await (await call("fake-out-of-quota", false)).arrayBuffer();
    expect(await status()).toBe("offline");
  });

  it("shows a model whose chats fail as offline (or starting, for 503s) though its /models answers, counts it in uptime, and lets it recover", async () => {
    let clock = Date.now();
    const { admin, call } = await setup({}, () => clock);
    const statuses = async () => {
      clearStatusCache(h.deps.db);
      return (await (await admin.call("GET", "/models/status")).json()) as Record<string, ModelStatus>;
    };
    const send = async (model: string, times: number) => {
      for (let i = 0; i < times; i++) await (await call(model, false)).arrayBuffer();
    };
    expect(await statuses()).toMatchObject({ "fake-server-error": "online", "fake-warming": "online", "fake-bad-request": "online" });
    clock += 10 * 60_000;

    // Four failures are too few to speak for everyone; the fifth is.
    await send("fake-server-error", 4);
    expect((await statuses())["fake-server-error"]).toBe("online");
    await send("fake-server-error", 1);
    await send("fake-warming", 5);
    await send("fake-bad-request", 5); // the client's fault: the model is fine
    await send("fake-echo", 2);
    await send("fake-rate-limited", 5); // busy, not down
    expect(await statuses()).toMatchObject({
      "fake-server-error": "offline",
      "fake-warming": "starting",
      "fake-bad-request": "online",
      "fake-echo": "online",
      "fake-rate-limited": "online",
    });

    // Half of the model's answers failing is enough; fewer is not.
    await send("fake-echo", 3);
    await send("fake-cut-json", 3);
    expect((await statuses())["fake-cut-json"]).toBe("online"); // 3 requests: too few
    await send("fake-cut-json", 2);
    expect((await statuses())["fake-cut-json"]).toBe("offline");

    // Uptime counts the offline time: online for the first 10 minutes, offline for the next 10.
    clock += 10 * 60_000;
    const { data } = (await (await admin.call("GET", "/models/metrics")).json()) as { data: ModelMetrics[] };
    expect(data.find((m) => m.name === "fake-server-error")!.uptime24h).toBeCloseTo(0.5, 2);

    // Once the failures are older than the window, the probe speaks again.
    expect((await statuses())["fake-server-error"]).toBe("online");
  });
});
