import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { saveModel } from "../../platform/models/service";
import type { FakeUpstream } from "../fakes/openai-upstream";
import { FAKE_ANSWER_PIECES, FAKE_REASONING, FAKE_USAGE, startFakeUpstream } from "../fakes/openai-upstream";
import type { Harness } from "./harness";
import { createHarness } from "./harness";

let fake: FakeUpstream;
let h: Harness;

beforeAll(async () => {
  fake = await startFakeUpstream({ apiKey: "sk-upstream" });
});
afterAll(() => fake.close());
afterEach(() => h?.close());

async function setup() {
  h = await createHarness();
  for (const upstream of ["echo", "think", "slow", "hang", "no-usage", "rate-limited", "warming"]) {
    await saveModel(h.deps, {
      name: `fake-${upstream}`,
      displayName: `Fake ${upstream}`,
      provider: "vllm",
      contextSize: 32768,
      baseUrl: fake.url,
      apiKey: "sk-upstream",
      upstreamModel: upstream,
      rateCard: { id: `rc-${upstream}`, inputPerMillion: 1, outputPerMillion: 2 },
    });
  }
  return h.admin();
}

const ask = (model: string) => ({ model, messages: [{ role: "user", content: "Say hello" }], stream: true });

async function readAll(response: Response): Promise<string> {
  return new TextDecoder().decode(await response.arrayBuffer());
}

async function receipt(session: Awaited<ReturnType<typeof setup>>, response: Response) {
  const id = response.headers.get("x-receipt-id");
  expect(id).toBeTruthy();
  // Metering runs as the stream ends; give it the moment it needs.
  for (let i = 0; i < 50; i++) {
    const r = await session.call("GET", `/chat/receipts/${id}`);
    if (r.status === 200) return r.json();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("no receipt");
}

describe("POST /chat/completions", () => {
  it("streams the built-in model's reply with a reasoning block, ending with [DONE]", async () => {
    const admin = await setup();
    const response = await admin.call("POST", "/chat/completions", ask("builtin"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const text = await readAll(response);
    expect(text).toContain("<think>");
    expect(text).toContain("**Say ");
    expect(text.trim().endsWith("data: [DONE]")).toBe(true);
    const r = await receipt(admin, response);
    expect(r).toMatchObject({ model: "builtin", cost: 0, estimated: false, outcome: "completed" });
    expect(r.reasoningTokens).toBeGreaterThan(0);
  });

  it("forwards to the upstream with its key and model id, passing the stream through unchanged", async () => {
    const admin = await setup();
    const response = await admin.call("POST", "/chat/completions", ask("fake-echo"));
    const text = await readAll(response);
    expect(fake.requests.at(-1)).toMatchObject({ model: "echo", authorization: "Bearer sk-upstream" });
    expect(text).toContain(JSON.stringify({ reasoning_content: FAKE_REASONING }));
    for (const piece of FAKE_ANSWER_PIECES) expect(text).toContain(JSON.stringify(piece));
    const r = await receipt(admin, response);
    expect(r).toMatchObject({ inputTokens: FAKE_USAGE.prompt_tokens, outputTokens: FAKE_USAGE.completion_tokens, reasoningTokens: 6, estimated: false });
    // 11 input tokens at $1/M + 13 output tokens at $2/M
    expect(r.cost).toBeCloseTo(0.000037, 9);
  });

  it("does not buffer: the first chunk arrives before the upstream has finished", async () => {
    const admin = await setup();
    const finishedBefore = fake.finished;
    const response = await admin.call("POST", "/chat/completions", ask("fake-slow"));
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('"role":"assistant"');
    expect(fake.finished).toBe(finishedBefore);
    while (!(await reader.read()).done);
    expect(fake.finished).toBe(finishedBefore + 1);
  });

  it("propagates a client abort to the upstream, and bills what was generated, estimated", async () => {
    const admin = await setup();
    const controller = new AbortController();
    const response = await h.fetch("/chat/completions", { method: "POST", cookie: admin.cookie, json: ask("fake-hang"), signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    const closed = fake.nextClose();
    controller.abort();
    await closed; // the fake saw its request closed
    const r = await receipt(admin, response);
    expect(r).toMatchObject({ outcome: "stopped", estimated: true, outputTokens: 0 });
    expect(r.inputTokens).toBeGreaterThan(0);
    expect(r.cost).toBeGreaterThan(0);
  });

  it("counts a stream without upstream usage with the tokenizer and marks it estimated", async () => {
    const admin = await setup();
    const response = await admin.call("POST", "/chat/completions", ask("fake-no-usage"));
    await readAll(response);
    const r = await receipt(admin, response);
    expect(r).toMatchObject({ estimated: true, outcome: "completed" });
    expect(r.outputTokens).toBeGreaterThan(0);
    expect(r.reasoningTokens).toBeGreaterThan(0);
  });

  it("takes reasoning inside a <think> block into the receipt", async () => {
    const admin = await setup();
    const response = await admin.call("POST", "/chat/completions", ask("fake-think"));
    expect(await readAll(response)).toContain("<think>");
    expect((await receipt(admin, response)).reasoningTokens).toBe(6);
  });

  it("passes the upstream's 429 and 503 on with their Retry-After, in the OpenAI error shape", async () => {
    const admin = await setup();
    const limited = await admin.call("POST", "/chat/completions", ask("fake-rate-limited"));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    expect(await limited.json()).toEqual({ error: { message: "Too many requests", type: "rate_limit_exceeded" } });
    const warming = await admin.call("POST", "/chat/completions", ask("fake-warming"));
    expect(warming.status).toBe(503);
    expect(warming.headers.get("retry-after")).toBe("120");
    expect((await warming.json()).error.message).toBe("Model is loading");
  });

  it("answers an unknown model with 404 in the OpenAI error shape", async () => {
    const admin = await setup();
    const response = await admin.call("POST", "/chat/completions", ask("no-such-model"));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { message: "The model 'no-such-model' does not exist", type: "invalid_request_error" } });
  });

  it("refuses bad input with 400 and signed-out callers with 401", async () => {
    const admin = await setup();
    expect((await admin.call("POST", "/chat/completions", { model: "builtin", messages: [] })).status).toBe(400);
    const anonymous = await h.fetch("/chat/completions", { method: "POST", json: ask("builtin") });
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.type).toBe("authentication_error");
  });

  it("answers a non-streamed request as JSON and meters it", async () => {
    const admin = await setup();
    const response = await admin.call("POST", "/chat/completions", { ...ask("fake-echo"), stream: false });
    const body = await response.json();
    expect(body.choices[0].message.content).toBe(FAKE_ANSWER_PIECES.join(""));
    expect((await receipt(admin, response)).estimated).toBe(false);
  });

  it("shows a receipt only to its own organization", async () => {
    const admin = await setup();
    const response = await admin.call("POST", "/chat/completions", ask("builtin"));
    await readAll(response);
    await receipt(admin, response);
    const other = await h.admin("Other");
    expect((await other.call("GET", `/chat/receipts/${response.headers.get("x-receipt-id")}`)).status).toBe(404);
  });
});

describe("/openai/v1", () => {
  it("refuses a request without a token in the OpenAI error shape, whatever its origin", async () => {
    await setup();
    const response = await h.fetch("/openai/v1/chat/completions", { method: "POST", json: ask("builtin"), headers: { origin: "https://elsewhere.example" } });
    expect(response.status).toBe(401);
    expect((await response.json()).error.type).toBe("authentication_error");
    expect((await h.fetch("/openai/v1/models")).status).toBe(401);
    expect((await h.fetch("/openai/v1/nothing")).status).toBe(404);
  });

  it("leaves /api/v1 as it was", async () => {
    await setup();
    expect((await h.fetch("/organizations/config")).status).toBe(200);
    expect(await (await h.fetch("/nothing")).json()).toEqual({ error: "Not found" });
  });
});
