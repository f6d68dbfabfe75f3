import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for an OpenAI-compatible inference server (vLLM, Ollama, OpenAI). What it does
 * depends on the upstream model id it is asked for:
 *
 * - `echo` (and any other id): streams a reply with `delta.reasoning_content` first, then content;
 * - `think`: the reasoning as a `<think>…</think>` block inside the content;
 * - `slow`: like echo, `slowDelayMs` between chunks;
 * - `gated`: like echo, but after its first chunk it waits for `release()` (a test decides when a reply ends, whatever the machine's speed);
 * - `no-usage`: never sends a usage chunk, even when asked;
 * - `rate-limited`: 429 with `Retry-After: 7`; `warming`: 503 with `Retry-After: 120`;
 * - `out-of-quota`: 429 `insufficient_quota`, as OpenAI answers when the platform's own account has no credit left;
 * - `bad-key`: 401, the platform's key refused; `bad-request`: 400 whose message names a key;
 * - `warming-once`: 503 the first time, then like echo;
 * - `hang`: sends the first chunk, then nothing until the client goes away;
 * - `to-the-limit`: like echo, but its usage says it generated exactly `max_tokens` (1000 when absent);
 * - `streams-anyway`: streams (with its usage chunk) even when asked for `stream: false`;
 * - `long`: streams `LONG_PIECES` one-word pieces and no usage (to be cut when it passes its reservation).
 * - `slow-first`: like echo, but the first chunk (or the whole JSON answer) comes after `firstTokenDelayMs`;
 * - `broken`: sends the first chunk, then drops the connection (an upstream failing mid-answer).
 * - `tool-call`: answers with a tool call (`get_weather`, its arguments streamed in pieces) and no usage;
 * - `odd-usage`: like echo, but its usage has a fractional prompt count and a string reasoning count;
 * - `keep-alive`: like echo, with an SSE comment (`: PROCESSING`) before each chunk, as OpenRouter sends while a model works.
 * - `hang-headers`: reads the request and answers nothing, not even its headers, until the client goes away;
 * - `silent-json`: sends 200 and a JSON content type, then nothing (a body that never comes);
 * - `unprocessable`: 422 (a parameter the provider can't take); `too-large`: 413 (a prompt past its limit);
 * - `forbidden`: 403 (the platform's key may not use the model).
 * - `out-of-credit`: 402, as OpenRouter answers when the platform's account has no credit left; `provider-timeout`: 408; `conflict`: 409 (each naming a key or hosts);
 * - `thinks-first`: a comment (`: PROCESSING`) and an empty role chunk at once, then like echo after `firstTokenDelayMs` (a model thinking before its first token);
 * - `done-open`: streams (even when asked for `stream: false`) a whole answer, usage and `[DONE]`, then keeps the connection open without ending the body;
 * - `late-json`: a JSON answer whose headers come at once and whose body comes after `firstTokenDelayMs` (counted in `closedEarly` if its client leaves first).
 */
export interface FakeUpstream {
  url: string;
  /** Every chat request received: upstream model id, body and Authorization header. */
  requests: { model: string; body: Record<string, unknown>; authorization: string | undefined }[];
  /** Streams whose client went away before the fake finished them. */
  closedEarly: number;
  /** Streams the fake finished ([DONE] written). */
  finished: number;
  /** What `/models` answers: 200, or another status (503 while "loading"). */
  modelsStatus: number;
  /** How long GET /models takes to answer (a slow probe). */
  modelsDelayMs: number;
  delayMs: number;
  slowDelayMs: number;
  firstTokenDelayMs: number;
  /** Resolves when a stream's client has gone away (for abort tests). */
  nextClose: () => Promise<void>;
  /** Lets every `gated` stream, waiting or still to come, go on to its end. */
  release: () => void;
  close: () => Promise<void>;
}

export const FAKE_REASONING = "Let me think about this.";
export const FAKE_ANSWER_PIECES = ["Hello", " from", " the", " fake", " upstream."];
/** The `tool-call` model's arguments, streamed in these pieces. */
export const TOOL_ARGUMENT_PIECES = ['{"city": "Paris",', ' "unit": "celsius",', ' "days": 3}'];
export const FAKE_USAGE = { prompt_tokens: 11, completion_tokens: 13, total_tokens: 24, completion_tokens_details: { reasoning_tokens: 6 } };

export const LONG_PIECES = 400;
export const LIMIT_PROMPT_TOKENS = 10;

/** What the misbehaving upstreams put in their messages, which no client may read (decision 0107). */
export const UPSTREAM_KEY = "sk-live-PLATFORMSECRET123";
export const INTERNAL = "http://10.20.30.40:8000/v1 (gpu-node-7.internal)";

export async function startFakeUpstream(options: { apiKey?: string } = {}): Promise<FakeUpstream> {
  const warmedUp = new Set<string>();
  let closeWaiters: (() => void)[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const state: Omit<FakeUpstream, "url" | "close" | "nextClose" | "release"> = {
    requests: [],
    closedEarly: 0,
    finished: 0,
    modelsStatus: 200,
    modelsDelayMs: 0,
    delayMs: 5,
    slowDelayMs: 250,
    firstTokenDelayMs: 600,
  };

  /** Counts in `closedEarly` (and wakes `nextClose`) an answer whose client went away before `finished()`. */
  const watchClose = (res: http.ServerResponse, finished: () => boolean) =>
    res.on("close", () => {
      if (finished()) return;
      state.closedEarly += 1;
      const waiters = closeWaiters;
      closeWaiters = [];
      for (const w of waiters) w();
    });

  const server = http.createServer(async (req, res) => {
    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "bad key" } }));
      return;
    }
    const url = new URL(req.url ?? "/", "http://fake");
    if (req.method === "GET" && url.pathname.endsWith("/models")) {
      if (state.modelsDelayMs > 0) await new Promise((r) => setTimeout(r, state.modelsDelayMs));
      res
        .writeHead(state.modelsStatus, { "content-type": "application/json" })
        .end(JSON.stringify({ object: "list", data: [{ id: "echo", object: "model" }] }));
      return;
    }
    if (req.method !== "POST" || !url.pathname.endsWith("/chat/completions")) {
      res.writeHead(404).end();
      return;
    }
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw) as { model: string; stream?: boolean; stream_options?: { include_usage?: boolean }; max_tokens?: number };
    state.requests.push({ model: body.model, body, authorization: req.headers.authorization });

    const error = (status: number, retryAfter: string, message: string) =>
      res.writeHead(status, { "content-type": "application/json", "retry-after": retryAfter }).end(JSON.stringify({ error: { message, type: "fake" } }));
    if (body.model === "rate-limited") return error(429, "7", "Too many requests");
    if (body.model === "out-of-quota")
      return void res.writeHead(429, { "content-type": "application/json" }).end(
        JSON.stringify({
          error: {
            message: "You exceeded your current quota, please check your plan and billing details.",
            type: "insufficient_quota",
            code: "insufficient_quota",
          },
        }),
      );
    if (body.model === "bad-key") return error(401, "0", "Incorrect API key provided: sk-upst*****CRET.");
    if (body.model === "bad-request") return error(400, "0", "Invalid request: key sk-proj-ABCDEFGH is not allowed to use max_tokens above 10");
    if (body.model === "warming") return error(503, "120", "Model is loading");
    if (body.model === "unprocessable") return error(422, "0", "temperature: Input should be less than or equal to 2");
    if (body.model === "too-large") return error(413, "0", "The prompt is longer than the model's context");
    if (body.model === "forbidden") return error(403, "0", "This key may not use this model");
    // The platform's account with the provider out of credit, as OpenRouter says it (its billing page, the account's key).
    if (body.model === "out-of-credit")
      return error(402, "0", `Insufficient credits for key ${UPSTREAM_KEY}. Add more using https://openrouter.ai/settings/credits`);
    if (body.model === "provider-timeout") return error(408, "0", `Request timed out waiting on ${INTERNAL}`);
    if (body.model === "conflict") return error(409, "0", `Deployment is being updated on ${INTERNAL}`);
    if (body.model === "hang-headers") return; // the client gives up first (the server's close() ends the socket)
    if (body.model === "silent-json") return void res.writeHead(200, { "content-type": "application/json" }).flushHeaders();
    // Providers that say too much (decision 0107): their key, their hosts, their error pages.
    if (body.model === "server-error") return error(500, "0", `CUDA out of memory on ${INTERNAL} key ${UPSTREAM_KEY}`);
    if (body.model === "missing") return error(404, "0", "The model `meta-llama/Llama-3.1-70B-Instruct` does not exist.");
    if (body.model === "html-error")
      return void res
        .writeHead(502, { "content-type": "text/html" })
        .end("<html><head><title>502 Bad Gateway</title></head><body>nginx at gpu-node-7.internal:8000</body></html>");
    if (body.model === "not-json") return void res.writeHead(200, { "content-type": "text/html" }).end(`<html><body>Gateway at ${INTERNAL}</body></html>`);
    if (body.model === "cut-json")
      return void res.writeHead(200, { "content-type": "application/json" }).end('{"id":"chatcmpl-cut","choices":[{"message":{"content":"Hel');
    if (body.model === "error-200")
      return void res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: `Provider returned error: key ${UPSTREAM_KEY}` } }));
    if (body.model === "warming-once" && !warmedUp.has(body.model)) {
      warmedUp.add(body.model);
      return error(503, "120", "Model is loading");
    }

    const id = `chatcmpl-fake-${state.requests.length}`;
    const think = body.model === "think";
    const toolCall = body.model === "tool-call";
    const deltas: Record<string, unknown>[] = toolCall
      ? [
          { tool_calls: [{ index: 0, id: "call_fake", type: "function", function: { name: "get_weather", arguments: "" } }] },
          ...TOOL_ARGUMENT_PIECES.map((piece) => ({ tool_calls: [{ index: 0, function: { arguments: piece } }] })),
        ]
      : think
        ? [{ content: "<think>" }, { content: FAKE_REASONING }, { content: "</think>" }, ...FAKE_ANSWER_PIECES.map((content) => ({ content }))]
        : body.model === "long"
          ? Array.from({ length: LONG_PIECES }, () => ({ content: " word" }))
          : [{ reasoning_content: FAKE_REASONING }, ...FAKE_ANSWER_PIECES.map((content) => ({ content }))];
    const completion = body.max_tokens ?? 1000;
    const usage =
      body.model === "to-the-limit"
        ? { prompt_tokens: LIMIT_PROMPT_TOKENS, completion_tokens: completion, total_tokens: LIMIT_PROMPT_TOKENS + completion }
        : body.model === "odd-usage"
          ? { prompt_tokens: 10.5, completion_tokens: 13, total_tokens: 23.5, completion_tokens_details: { reasoning_tokens: "6" } }
          : FAKE_USAGE;
    const streamsAnyway = body.model === "streams-anyway" || body.model === "cut-short" || body.model === "done-open";

    if ((!body.stream && !streamsAnyway) || body.model === "json-anyway") {
      if (body.model === "slow-first") await new Promise((r) => setTimeout(r, state.firstTokenDelayMs));
      if (body.model === "late-json") {
        watchClose(res, () => res.writableEnded);
        res.writeHead(200, { "content-type": "application/json" }).flushHeaders();
        await new Promise((r) => setTimeout(r, state.firstTokenDelayMs));
        if (res.destroyed) return;
      }
      const content = deltas.map((d) => d.content ?? "").join("");
      if (toolCall) {
        const call = { id: "call_fake", type: "function", function: { name: "get_weather", arguments: TOOL_ARGUMENT_PIECES.join("") } };
        const message = { role: "assistant", content: null, tool_calls: [call] };
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ id, object: "chat.completion", created: 1, model: body.model, choices: [{ index: 0, message, finish_reason: "tool_calls" }] }));
        return;
      }
      const message = think ? { role: "assistant", content } : { role: "assistant", content, reasoning_content: FAKE_REASONING };
      (res.headersSent ? res : res.writeHead(200, { "content-type": "application/json" })).end(
        JSON.stringify({ id, object: "chat.completion", created: 1, model: body.model, choices: [{ index: 0, message, finish_reason: "stop" }], usage }),
      );
      return;
    }

    let finished = false;
    watchClose(res, () => finished);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const comment = body.model === "keep-alive" ? ": PROCESSING\n\n" : "";
    const send = (payload: unknown) => res.write(`${comment}data: ${JSON.stringify(payload)}\n\n`);
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      send({ id, object: "chat.completion.chunk", created: 1, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] });
    if (body.model === "slow-first") await new Promise((r) => setTimeout(r, state.firstTokenDelayMs));
    if (body.model === "thinks-first") res.write(": PROCESSING\n\n");
    chunk({ role: "assistant", content: "" });
    if (body.model === "thinks-first") await new Promise((r) => setTimeout(r, state.firstTokenDelayMs));
    if (body.model === "hang") return; // and never another byte
    if (body.model === "gated") await gate;
    if (body.model === "broken") return void setTimeout(() => res.destroy(), state.delayMs);
    if (body.model === "mid-error") {
      chunk({ content: "Hello" });
      res.end(`data: ${JSON.stringify({ error: { message: `CUDA out of memory on ${INTERNAL} key ${UPSTREAM_KEY}`, type: "internal_error" } })}\n\n`);
      return;
    }
    if (body.model === "cut-short") {
      chunk({ content: "Hello" });
      return void res.end();
    }
    if (body.model === "malformed") {
      res.write("event: ping\ndata: {}\n\n");
      res.write('data: {"choices":null}\n\n');
      res.write("data: not json\n\n");
    }
    const delay = body.model === "slow" ? state.slowDelayMs : body.model === "long" ? 0 : state.delayMs;
    for (const delta of deltas) {
      await new Promise((r) => (delay ? setTimeout(r, delay) : setImmediate(r)));
      if (res.destroyed) return;
      chunk(delta);
    }
    chunk({}, toolCall ? "tool_calls" : "stop");
    if ((body.stream_options?.include_usage || streamsAnyway) && !["no-usage", "long", "tool-call"].includes(body.model)) {
      send({ id, object: "chat.completion.chunk", created: 1, model: body.model, choices: [], usage });
    }
    res.write("data: [DONE]\n\n");
    if (body.model === "done-open") return; // the connection stays open until the client cuts it (counted in closedEarly)
    finished = true;
    state.finished += 1;
    res.end();
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const fake = state as FakeUpstream;
  fake.url = `http://127.0.0.1:${port}/v1`;
  fake.nextClose = () => new Promise<void>((resolve) => closeWaiters.push(resolve));
  fake.release = release;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
