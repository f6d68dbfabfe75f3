import http from "node:http";
import type { AddressInfo } from "node:net";
import type { CreatedApiToken } from "@contract/tokens";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { creditPayment } from "../../platform/billing/ledger";
import type { Harness } from "./harness";
import { createHarness } from "./harness";
import { saveFakeModels } from "./fake-models";

/** What OpenAI's own clients (its SDKs, a browser app) read of /openai/v1 answers. */

let h: Harness;
let toolServer: http.Server;
let toolUrl: string;

const LOGPROB = (token: string) => ({ token, logprob: -0.5, bytes: null, top_logprobs: [] });

beforeAll(async () => {
  // An upstream that streams even when asked for stream:false (decision 0084), answering with two tool
  // calls made at once, their pieces interleaved as OpenAI streams them, and per-token log probabilities.
  // `json-anyway` answers one JSON completion with its log probabilities even when asked to stream.
  toolServer = http.createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    if ((JSON.parse(raw) as { model: string }).model === "json-anyway") {
      const choice = { index: 0, message: { role: "assistant", content: "Hi" }, logprobs: { content: [LOGPROB("Hi")], refusal: null }, finish_reason: "stop" };
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ id: "chatcmpl-j", object: "chat.completion", created: 1, model: "m", choices: [choice] }));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    const send = (choice: object) =>
      res.write(
        `data: ${JSON.stringify({ id: "chatcmpl-t", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, ...choice }] })}\n\n`,
      );
    const call = (index: number, piece: object) => ({
      delta: { tool_calls: [{ index, ...piece }] },
      logprobs: { content: [LOGPROB(`t${index}`)] },
      finish_reason: null,
    });
    send({ delta: { role: "assistant", content: null }, finish_reason: null });
    send(call(0, { id: "call_1", type: "function", function: { name: "get_weather", arguments: "" } }));
    send(call(1, { id: "call_2", type: "function", function: { name: "get_time", arguments: '{"city":' } }));
    send(call(0, { function: { arguments: '{"city":' } }));
    send(call(0, { function: { arguments: '"Paris"}' } }));
    send(call(1, { function: { arguments: '"Oslo"}' } }));
    send({ delta: {}, finish_reason: "tool_calls" });
    res.end("data: [DONE]\n\n");
  });
  await new Promise<void>((resolve) => toolServer.listen(0, "127.0.0.1", resolve));
  toolUrl = `http://127.0.0.1:${(toolServer.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => toolServer.close(() => resolve())));
afterEach(() => h?.close());

/** A token's call of /openai/v1/chat/completions, for an organization with $10. */
async function tokenCall() {
  h = await createHarness();
  await saveFakeModels(h.deps, toolUrl, ["tools-anyway", "json-anyway"]);
  const admin = await h.admin();
  await creditPayment(h.deps, { orgId: admin.orgId, paymentIntentId: `pi_clients_${Date.now()}`, amountMicros: 10e6, description: "Test funds" });
  const token = (await (await admin.call("POST", "/tokens", { scopes: ["chat"], expiresAt: null })).json()) as CreatedApiToken;
  return (body: object) =>
    h.fetch("/openai/v1/chat/completions", {
      method: "POST",
      headers: { authorization: `Bearer ${token.token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
}

describe("an answer in the other form than the one asked for (decision 0084)", () => {
  it("gets the tool calls the upstream streamed, whole and in order, with content null and the log probabilities", async () => {
    const call = await tokenCall();
    const response = await call({ model: "fake-tools-anyway", stream: false, logprobs: true, messages: [{ role: "user", content: "Weather and time?" }] });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { choices: { message: Record<string, unknown>; logprobs: unknown; finish_reason: string }[] };
    expect(body.choices[0].finish_reason).toBe("tool_calls");
    expect(body.choices[0].message).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
        { id: "call_2", type: "function", function: { name: "get_time", arguments: '{"city":"Oslo"}' } },
      ],
    });
    expect(body.choices[0].logprobs).toEqual({ content: ["t0", "t1", "t0", "t0", "t1"].map(LOGPROB), refusal: null });
  });

  it("a stream made from a JSON answer keeps its log probabilities", async () => {
    const call = await tokenCall();
    const text = await (await call({ model: "fake-json-anyway", stream: true, logprobs: true, messages: [{ role: "user", content: "Hi" }] })).text();
    const chunks = text
      .split("\n\n")
      .filter((event) => event.startsWith("data: {"))
      .map((event) => JSON.parse(event.slice(6)) as { choices: { delta: { content?: string }; logprobs?: unknown }[] });
    expect(chunks[0].choices[0]).toMatchObject({ delta: { content: "Hi" }, logprobs: { content: [LOGPROB("Hi")], refusal: null } });
  });
});

describe("a browser app calling /openai/v1 from another origin (decision 0098)", () => {
  it("may read x-should-retry, so OpenAI's SDK does not retry a refusal marked final", async () => {
    h = await createHarness();
    const response = await h.fetch("/openai/v1/models", { headers: { authorization: "Bearer sk-wrong", origin: "https://app.example" } });
    expect(response.status).toBe(401);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("x-should-retry")).toBe("false");
    expect((response.headers.get("access-control-expose-headers") ?? "").split(/,\s*/)).toContain("x-should-retry");
  });
});

describe("the x-request-id of a /openai/v1 answer (decision 0138)", () => {
  it("is the request's own id, which the access log and error lines name, except a completion's, which is its receipt", async () => {
    const call = await tokenCall();
    const models = (headers: Record<string, string>) => h.fetch("/openai/v1/models", { headers: { authorization: "Bearer sk-wrong", ...headers } });
    expect((await models({ "x-request-id": "nginx-7f3a9c" })).headers.get("x-request-id")).toBe("nginx-7f3a9c");
    // Not a plain token (the front door replaces those before the platform sees them), or none: a new one.
    expect((await models({ "x-request-id": 'x" 200 "forged' })).headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{24}$/);
    expect((await models({})).headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{24}$/);
    const completion = await h.fetch("/openai/v1/chat/completions", {
      method: "POST",
      headers: { "x-request-id": "nginx-1", "content-type": "application/json" },
      body: "{}",
    });
    expect(completion.status).toBe(401);
    expect(completion.headers.get("x-request-id")).toBe("nginx-1");
    const metered = await call({ model: "fake-json-anyway", stream: false, messages: [{ role: "user", content: "Hi" }] });
    expect(metered.status).toBe(200);
    expect(metered.headers.get("x-request-id")).toBe(metered.headers.get("x-receipt-id"));
  });
});

describe("a body over the limit under /openai/v1", () => {
  it("is refused 413 in the OpenAI shape, readable cross-origin and marked final, declared or chunked", async () => {
    h = await createHarness();
    const chunked = (bytes: number) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let sent = 0; sent < bytes; sent += 64 * 1024) controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
          controller.close();
        },
      });
    const headers = { authorization: "Bearer sk-x", "content-type": "application/json", origin: "https://app.example" };
    for (const [path, limit, body, length] of [
      ["/openai/v1/chat/completions", "8 MB", "{}", String(9 * 1024 * 1024)],
      ["/openai/v1/chat/completions", "8 MB", chunked(9 * 1024 * 1024), undefined],
      ["/openai/v1/models", "64 KB", chunked(100 * 1024), undefined],
    ] as const) {
      const response = await h.fetch(path, {
        method: "POST",
        body,
        headers: { ...headers, ...(length ? { "content-length": length } : {}) },
        duplex: "half",
      } as RequestInit);
      expect(response.status, path).toBe(413);
      expect(response.headers.get("access-control-allow-origin"), path).toBe("*");
      expect((response.headers.get("access-control-expose-headers") ?? "").split(/,\s*/), path).toContain("x-should-retry");
      expect(response.headers.get("x-should-retry"), path).toBe("false");
      expect(response.headers.get("x-request-id"), path).toMatch(/^req_/);
      expect(await response.json(), path).toEqual({
        error: { message: `Request body too large: at most ${limit} here.`, type: "invalid_request_error", param: null, code: "request_too_large" },
      });
    }
  });
});
