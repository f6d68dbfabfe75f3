import { randomBytes } from "node:crypto";
import type { ChatRequest, Receipt, UpstreamUsage } from "@contract/chat";
import { allowListMessage, chatRequestSchema, DEFAULT_MAX_REQUEST_CHARS, RECEIPT_HEADER, tooLargeMessage } from "@contract/chat";
import { STREAM_KEEP_ALIVE_MS } from "@contract/sse";
import type { Deps } from "../context";
import type { ModelRow } from "../db/schema";
import { findModel, isBuiltin, isPriced } from "../models/service";
import type { RequestTiming } from "../models/metrics";
import { beginRequest } from "../models/metrics";
import type { UpstreamReply } from "../providers/upstream";
import { upstreamKey } from "../models/upstream-keys";
import { isUpstreamTimeout, postChatCompletion, replyOf, UPSTREAM_TIMEOUT_MS } from "../providers/upstream";
import { builtinChatCompletion } from "../providers/upstream-builtin";
import { recordUsage, refusedForBalance } from "../billing/charges";
import type { DB } from "../db";
import { compiledOnce } from "../db/compiled";
import { byDeadline } from "../db/deadline";
import { extendReservation, release, reserve, settleWithin, SpendRefused } from "../spend/reservations";
import { fitToShow, upstreamErrorText } from "./upstream-text";
import { withoutKeys } from "@contract/redact";
import { apiTokenUsable } from "../tokens/service";
import { isMember } from "../orgs/service";
import { ROLLUP_GRACE_MS } from "../usage/rollup";
import type { TokenCount } from "./meter";
import {
  billedUsage,
  costMicros,
  countPromptTokensAsync,
  mediaPartsOf,
  promptExtrasText,
  requestChars,
  StreamMeter,
  StreamRelay,
  tokenCount,
  toolCallText,
} from "./meter";

/** Who a completion is billed to: a member through the console, or an API token. */
export interface ChatCaller {
  orgId: number;
  userId: number | null;
  tokenId: number | null;
  /** The hash of the API token's secret the call was made with (with `tokenId`): a stream stops when it no longer works. */
  tokenSecretHash?: string;
  /** Whether the token had a budget when authenticated; absent: admission reads it. */
  tokenBudgeted?: boolean;
  /** The API token's allow-list; null or absent: every model. */
  allowedModels?: string[] | null;
}

/** What an OpenAI client reads of a refusal besides its message and type (decision 0098). */
export interface ChatErrorDetails {
  retryAfter?: string | null;
  /** OpenAI's machine-readable code (`insufficient_quota`, `model_not_found`…), which clients branch on. */
  code?: string | null;
  /** The request parameter at fault. */
  param?: string | null;
  /** False when asking again cannot help: OpenAI's SDKs then do not retry (`x-should-retry`). */
  retryable?: boolean;
}

/** An OpenAI-shaped refusal: `{"error": {"message", "type", "param", "code"}}` with its status (and Retry-After). */
export class ChatError extends Error {
  /**
   * The receipt made for the request before it failed, which the error lines name: the public API
   * answers it as the request's id, as it does a completion's (decision 0138).
   */
  receiptId?: string;

  constructor(
    readonly status: 400 | 401 | 402 | 403 | 404 | 409 | 413 | 429 | 500 | 502 | 503 | 504,
    message: string,
    readonly type: string,
    readonly details: ChatErrorDetails = {},
  ) {
    super(message);
  }
}

export function chatErrorResponse(error: ChatError): Response {
  const { retryAfter, code = null, param = null, retryable } = error.details;
  const headers = new Headers({ "content-type": "application/json" });
  if (retryAfter) headers.set("retry-after", retryAfter);
  if (retryable === false) headers.set("x-should-retry", "false");
  return new Response(JSON.stringify({ error: { message: error.message, type: error.type, param, code } }), { status: error.status, headers });
}

/** A JSON answer given up because the server stops (a stream says the same in its error event, server/shutdown.ts). */
export const SHUTTING_DOWN_MESSAGE = "The server is shutting down: the request was stopped. Try again.";

/** The refusal of a body that is not a JSON object: JSON that did not parse, or another content type. */
export const NOT_JSON_MESSAGE = "We could not parse the JSON body of your request: send a JSON object with Content-Type: application/json.";

/** `body` as read from the request: null when it was not JSON (unparseable or another content type). */
/** How deep a request's JSON may nest: JSON schemas of tools are a few levels; 100 is far past any real one. */
export const MAX_JSON_DEPTH = 100;
export const TOO_DEEP_MESSAGE = `The JSON body of your request nests more than ${MAX_JSON_DEPTH} levels deep.`;

/**
 * Whether a parsed value nests deeper than `max`, measured without recursion: JSON.parse takes 5,000
 * levels, and JSON.stringify of them (the metering's and the upstream's) overflowed the stack, a 500,
 * or a 502 counted against the model as its own failure (decision 0139).
 */
function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== "object") continue;
    if (depth > max) return true;
    for (const child of Object.values(item)) if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
  return false;
}

export function parseChatRequest(body: unknown): ChatRequest {
  if (body === null || typeof body !== "object") throw new ChatError(400, NOT_JSON_MESSAGE, "invalid_request_error", { code: "invalid_json" });
  if (nestsDeeperThan(body, MAX_JSON_DEPTH)) throw new ChatError(400, TOO_DEEP_MESSAGE, "invalid_request_error", { code: "invalid_json" });
  const parsed = chatRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const param = issue.path.join(".") || null;
    throw new ChatError(400, `${param ?? "body"}: ${issue.message}`, "invalid_request_error", { param });
  }
  return parsed.data;
}

export { RECEIPT_HEADER };

/**
 * The output a request may generate: its own cap, else the model's default, never past the context.
 * Its own cap is `max_completion_tokens` when given (OpenAI's current field, which `max_tokens` is the
 * deprecated form of; vLLM and SGLang take it over `max_tokens` too), else `max_tokens` (decision 0138).
 */
export function maxOutputTokens(model: Pick<ModelRow, "default_max_tokens" | "context_size">, body: ChatRequest): number {
  const usable = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v > 0;
  const asked = usable(body.max_completion_tokens) ? body.max_completion_tokens : usable(body.max_tokens) ? body.max_tokens : null;
  return Math.min(Math.ceil(asked ?? model.default_max_tokens ?? model.context_size), model.context_size);
}

/**
 * The request as the upstream gets it, told the output cap that was held, in the field it reads:
 * older servers read only `max_tokens`, and OpenAI's reasoning models refuse it. So each cap field the
 * client sent carries the held cap (the same number in both: an upstream that reads the other one can
 * neither pass the hold nor, as 0101 had it, generate more than the client asked for in
 * `max_completion_tokens`), and `max_tokens` is added for an upstream other than OpenAI. A client that
 * sent `max_tokens: 1, max_completion_tokens: 100000` made a compliant upstream generate past the hold.
 */
export function withHeldOutputCap(model: Pick<ModelRow, "default_max_tokens" | "context_size" | "provider">, body: ChatRequest): ChatRequest {
  const gaveMax = typeof body.max_tokens === "number";
  const gaveCompletion = typeof body.max_completion_tokens === "number";
  if (!gaveMax && !gaveCompletion) {
    // The model's default is what was held: the upstream is told it, or it may generate to its own limit
    // (OpenAI in the field its reasoning models accept).
    if (model.default_max_tokens === null || model.default_max_tokens >= model.context_size) return body;
    return { ...body, [model.provider === "openai" ? "max_completion_tokens" : "max_tokens"]: model.default_max_tokens };
  }
  const cap = maxOutputTokens(model, body);
  return {
    ...body,
    ...(gaveCompletion ? { max_completion_tokens: cap } : {}),
    ...(gaveMax || model.provider !== "openai" ? { max_tokens: cap } : {}),
  };
}

/**
 * The prompt tokens a hold counts: gpt-tokenizer's count, with room for the upstream's own tokenizer
 * and chat template, which count the same messages differently (a quarter more, and 8 a message):
 * holding the count alone let concurrent requests overshoot a balance (decision 0098).
 */
export function heldPromptTokens(counted: number, body: Pick<ChatRequest, "messages">): number {
  return Math.ceil(counted * 1.25) + 8 * body.messages.length + MEDIA_PART_TOKENS * mediaPartsOf(body.messages);
}

/**
 * What a hold counts for each image, audio or file part, which the tokenizer here cannot read: a
 * detailed 1024×1024 image is about 1,100 tokens at OpenAI. Not a bound for every model (decision 0100).
 */
const MEDIA_PART_TOKENS = 1_500;

/** The most a request can cost, in micro-dollars: its prompt as held and its output cap at the rate card. */
export function worstCaseMicros(model: ModelRow, promptTokens: number, body: ChatRequest): number {
  const prompt = heldPromptTokens(promptTokens, body);
  return Math.ceil((prompt * model.input_micros_per_million) / 1e6) + Math.ceil((maxOutputTokens(model, body) * model.output_micros_per_million) / 1e6);
}

/**
 * One chat completion: checks the request's size, the caller's allow-list and the model, holds the
 * request's worst-case cost (a spend reservation: balance, monthly cap, token budget), forwards to the
 * model's upstream (or the built-in model), passes the answer through as it arrives with the model name
 * the client asked for, and settles what was generated when the answer ends: finished, broken, stopped
 * by the client, or cut because it passed what was held.
 */
export async function chatCompletion(deps: Deps, caller: ChatCaller, body: ChatRequest, signal: AbortSignal): Promise<Response> {
  const limit = deps.config.maxRequestChars ?? DEFAULT_MAX_REQUEST_CHARS;
  if (requestChars(body.messages) > limit) throw new ChatError(413, tooLargeMessage(limit), "invalid_request_error", { param: "messages" });
  if (caller.allowedModels && !caller.allowedModels.includes(body.model))
    throw new ChatError(403, allowListMessage(caller.allowedModels), "permission_error", { param: "model", retryable: false });
  const model = await findModel(deps, body.model);
  if (!model) throw new ChatError(404, `The model '${body.model}' does not exist`, "invalid_request_error", { param: "model", code: "model_not_found" });
  if (model.status_override === "maintenance")
    throw new ChatError(503, `The model '${model.name}' is under maintenance`, "server_error", { code: "model_under_maintenance", retryable: false });

  const receiptId = `rcpt_${randomBytes(12).toString("hex")}`;
  const priced = isPriced(model);
  // Free models hold nothing: they cost nothing against any balance, cap or budget.
  let promptTokens: number | null = null;
  let held = 0;
  if (priced) {
    promptTokens = await countPromptTokensAsync(body.messages, promptExtrasText(body));
    held = worstCaseMicros(model, promptTokens, body);
    try {
      await reserve(deps, { orgId: caller.orgId, tokenId: caller.tokenId, tokenBudgeted: caller.tokenBudgeted, receiptId, amountMicros: held });
    } catch (error) {
      // Refused for balance in auto mode, the recharge that lets it spend again starts here (off the answer's path).
      if (error instanceof SpendRefused)
        throw new ChatError(402, await refusedForBalance(deps, caller.orgId, error), "insufficient_quota", { code: "insufficient_quota" });
      throw error;
    }
  }
  // Until the answer is a stream (which keeps its own hold, below), the hold is kept from expiring: a
  // slow upstream or a long JSON answer would otherwise lose it while it still spends.
  const keepHeld = priced ? setInterval(() => void extendReservation(deps, receiptId).catch(() => {}), deps.config.streamRecheckMs ?? RECHECK_MS) : undefined;
  keepHeld?.unref();
  // A JSON answer still awaited when the process stops is given up (a stream is ended by the server's
  // stream tracker, and metered for what it sent): the client hears why, and the hold goes back.
  // (Not AbortSignal.any: Node keeps every signal it makes from a long-lived one, a leak per request.)
  const stopping = deps.stopping;
  let cut = signal;
  let unlink = () => {};
  if (stopping && !body.stream) {
    const either = new AbortController();
    const abort = () => either.abort(signal.aborted ? signal.reason : stopping.reason);
    if (signal.aborted || stopping.aborted) abort();
    signal.addEventListener("abort", abort, { once: true });
    stopping.addEventListener("abort", abort, { once: true });
    unlink = () => {
      signal.removeEventListener("abort", abort);
      stopping.removeEventListener("abort", abort);
    };
    cut = either.signal;
  }
  try {
    return await forward(deps, caller, body, cut, model, receiptId, held, promptTokens);
  } catch (error) {
    // Nothing was generated: what was held goes back now rather than at expiry.
    if (priced) await release(deps, receiptId).catch((e) => console.error(`Releasing ${receiptId} failed:`, e));
    const failed =
      stopping?.aborted && !signal.aborted && error instanceof ChatError && error.type === "request_cancelled"
        ? new ChatError(503, SHUTTING_DOWN_MESSAGE, "server_error", { code: "server_shutting_down", retryAfter: "1" })
        : error;
    if (failed instanceof ChatError) failed.receiptId = receiptId;
    throw failed;
  } finally {
    clearInterval(keepHeld);
    unlink();
  }
}

async function forward(
  deps: Deps,
  caller: ChatCaller,
  body: ChatRequest,
  signal: AbortSignal,
  model: ModelRow,
  receiptId: string,
  held: number,
  promptTokens: number | null,
): Promise<Response> {
  const upstreamAbort = new AbortController();
  const onClientAbort = () => upstreamAbort.abort(signal.reason);
  if (signal.aborted) onClientAbort();
  signal.addEventListener("abort", onClientAbort, { once: true });
  const stop = () => signal.removeEventListener("abort", onClientAbort);

  // Ask for the usage chunk, so metering uses the upstream's own figures whenever it has them.
  const capped = withHeldOutputCap(model, body);
  const forwarded: ChatRequest = body.stream ? { ...capped, stream_options: { ...body.stream_options, include_usage: true } } : capped;
  const timing = beginRequest(deps, model.name, caller.orgId);
  const timeoutMs = deps.config.upstreamTimeoutMs ?? UPSTREAM_TIMEOUT_MS;
  let upstream: UpstreamReply;
  try {
    upstream = isBuiltin(model)
      ? replyOf(
          builtinChatCompletion(
            forwarded as Parameters<typeof builtinChatCompletion>[0],
            model.name,
            upstreamAbort.signal,
            deps.now(),
            promptTokens ?? (await countPromptTokensAsync(body.messages)),
          ),
        )
      : await postChatCompletion({ ...model, api_key: upstreamKey(deps.db, model.api_key) }, forwarded, upstreamAbort.signal, timeoutMs);
  } catch (error) {
    stop();
    if (signal.aborted) {
      timing.fail("aborted");
      throw new ChatError(400, "The request was cancelled", "request_cancelled");
    }
    if (isUpstreamTimeout(error)) {
      // Reached, but silent: a 504 the client can tell from an address that answers nothing (M7, audit N).
      timing.fail(504);
      console.error(`Upstream of ${model.name} did not start answering ${receiptId} within ${seconds(timeoutMs)}`);
      throw new ChatError(
        504,
        `The model '${model.name}' did not start answering within ${seconds(timeoutMs)}. Try again, or ask for a shorter answer.`,
        "server_error",
        { code: "upstream_timeout" },
      );
    }
    timing.fail(502);
    console.error(`Upstream of ${model.name} unreachable for ${receiptId}:`, errorText(error));
    throw new ChatError(502, `The model '${model.name}' could not be reached`, "server_error", { code: "upstream_unreachable" });
  }

  if (upstream.status < 200 || upstream.status >= 300) {
    stop();
    const raw = await upstream.text().catch(() => "");
    // The provider account out of quota is a failure of the model, not a rate limit, in its figures too.
    timing.fail(upstream.status === 429 && raw.includes('"insufficient_quota"') ? 502 : upstream.status);
    const said = upstreamErrorText(raw);
    // What a client may read of it (decision 0107): its own request's fault, keys and addresses cut, never a page of markup.
    const shown = fitToShow(said);
    const retryAfter = upstream.header("retry-after");
    // Refusals that asking again cannot change until the operator acts (credentials, the provider account's
    // credit, the model's name at the provider) say so: OpenAI's SDKs would otherwise retry each twice.
    const logged = () => console.error(`Upstream of ${model.name} answered ${upstream.status} to ${receiptId}: ${withoutKeys(said) || "(no message)"}`);
    if (upstream.status === 401 || upstream.status === 403) {
      // The platform's own credentials were refused: the operator's to fix, and no business of the caller's.
      logged();
      throw new ChatError(502, `The model '${model.name}' is not available: its provider refused the platform's credentials`, "server_error", {
        code: "upstream_error",
        retryable: false,
      });
    }
    if (upstream.status === 429 && raw.includes('"insufficient_quota"')) {
      // The platform's account with the provider is out of credit: the operator's billing, not a rate the
      // client should wait out (OpenAI's clients retry a 429).
      logged();
      throw new ChatError(502, `The model '${model.name}' is not available: its provider's account for this platform is out of quota`, "server_error", {
        code: "upstream_error",
        retryable: false,
      });
    }
    if (upstream.status === 402) {
      // Payment required: the same, from providers that say it so (OpenRouter's "Insufficient credits", with its billing page).
      logged();
      throw new ChatError(502, `The model '${model.name}' is not available: its provider's account for this platform is out of credit`, "server_error", {
        code: "upstream_error",
        retryable: false,
      });
    }
    if (upstream.status === 408) {
      // The provider gave up waiting on its own side: a timeout, as the platform's own limit on silence answers one.
      logged();
      throw new ChatError(
        504,
        `The model '${model.name}' did not answer in time (its provider answered 408). Try again, or ask for a shorter answer.`,
        "server_error",
        { code: "upstream_timeout" },
      );
    }
    if (upstream.status === 429)
      throw new ChatError(429, shown ?? `The model '${model.name}' is receiving too many requests. Try again shortly.`, "rate_limit_exceeded", {
        retryAfter,
        code: "rate_limit_exceeded",
      });
    if (upstream.status === 503)
      throw new ChatError(503, shown ?? `The model '${model.name}' is not available right now. Try again shortly.`, "server_error", {
        retryAfter,
        code: "upstream_unavailable",
      });
    if (upstream.status === 404 || upstream.status === 410) {
      // The model the operator configured is not the provider's: not the client's request at fault.
      logged();
      throw new ChatError(502, `The model '${model.name}' is not available from its provider`, "server_error", { code: "upstream_error", retryable: false });
    }
    // Only a refusal of the request itself is the client's to read and fix: a bad parameter, a prompt too
    // large (decision 0111 counts the same three as the client's). Any other 4xx (405, 409, 415…) is
    // about the provider or the operator's configuration, and answered like its 5xx.
    if (upstream.status === 400 || upstream.status === 413 || upstream.status === 422)
      throw new ChatError(400, shown ?? `The model '${model.name}' refused the request (its provider answered ${upstream.status})`, "invalid_request_error");
    // A provider's own failure: its words (a stack, a GPU's state, a host, its billing) are the operator's, in the log.
    logged();
    throw new ChatError(502, `The model '${model.name}' failed to answer (its provider answered ${upstream.status}). Try again.`, "server_error", {
      code: "upstream_error",
    });
  }

  const meter = (count: TokenCount, outcome: "completed" | "stopped" | "failed") => {
    timing.end(outcome, count.completionTokens);
    return meterCompletion(deps, caller, model, receiptId, count, outcome);
  };
  const prompt = promptTokens ?? body.messages;
  /** Whether generating this many output tokens costs more than was held (a priced request only): past its output cap. */
  const heldPrompt = heldPromptTokens(promptTokens ?? 0, body);
  const passesHold = (outputTokens: number) =>
    held > 0 &&
    costMicros({ promptTokens: heldPrompt, completionTokens: outputTokens }, model.input_micros_per_million, model.output_micros_per_million) > held;

  const contentType = upstream.header("content-type") ?? "application/json";
  const upstreamStreams = contentType.includes("text/event-stream");
  const headers = { [RECEIPT_HEADER]: receiptId };

  if (!body.stream && upstreamStreams) {
    // The client asked for one JSON answer and the upstream streamed anyway: read it all, bill it, assemble it.
    const watcher = new StreamMeter(true);
    const chunks = upstream.chunks[Symbol.asyncIterator]();
    let outcome: "completed" | "stopped" | "failed" = "completed";
    let broke: unknown = null;
    try {
      for (;;) {
        const next = await chunks.next();
        if (next.done) break;
        watcher.push(next.value);
        if (passesHold(watcher.outputTokens)) {
          outcome = "stopped";
          upstreamAbort.abort();
          upstream.cancel();
          break;
        }
        // The answer is whole at `[DONE]`, whether or not the upstream then ends its body.
        if (watcher.done) {
          letGoAfterDone(chunks, upstream, upstreamAbort);
          break;
        }
      }
      watcher.end();
      if (outcome === "completed" && !watcher.done) outcome = "failed";
    } catch (error) {
      outcome = "failed";
      broke = error;
    } finally {
      stop();
    }
    if (signal.aborted) {
      // Given up before its answer (the client left, or the server stops: chatCompletion tells the two
      // apart): the client gets none of it, so nothing is charged and the hold goes back, as for a JSON
      // upstream (decision 0128). Metering it charged each attempt of a client that timed out and retried.
      timing.fail("aborted");
      throw new ChatError(400, "The request was cancelled", "request_cancelled");
    }
    // An answer that broke off is not passed on as if whole, nor charged: the client got none of it.
    if (outcome === "failed") throw brokeOffError(timing, model.name, receiptId, timeoutMs, broke ?? new Error("it ended without [DONE]"));
    await meter(watcher.count(prompt), outcome);
    return Response.json(assembled(body.model, watcher, prompt, outcome === "stopped", deps.now()), { headers });
  }

  if (!body.stream || !upstreamStreams) {
    let text: string;
    try {
      // The client's abort (and, for a JSON request, the server's stop) stays hooked while the body is
      // read: a client that leaves ends the upstream's generation, and is not charged for it.
      text = await upstream.text();
    } catch (error) {
      if (signal.aborted) {
        // Given up (the client left, or the server stops: chatCompletion tells the two apart): the
        // client gets nothing, so nothing is charged, as for an abort before the headers.
        timing.fail("aborted");
        throw new ChatError(400, "The request was cancelled", "request_cancelled");
      }
      // A body that broke or went silent was never counted: it is now, as the model's failure.
      throw brokeOffError(timing, model.name, receiptId, timeoutMs, error);
    } finally {
      stop();
    }
    const parsed = completionIn(text);
    if (!parsed) {
      // An error page, a cut-off body or an error sent as a success: nothing a client can read, so
      // nothing is charged, and its words (keys, hosts) are the operator's (decision 0107).
      timing.fail(502);
      console.error(
        `Upstream of ${model.name} sent ${receiptId} an answer that is not a chat completion (${contentType}): ${withoutKeys(upstreamErrorText(text)) || "(empty)"}`,
      );
      throw new ChatError(502, `The model '${model.name}' sent an answer that could not be read. Try again.`, "server_error", {
        code: "upstream_invalid_response",
      });
    }
    const message = parsed.choices[0]?.message;
    const content = typeof message?.content === "string" ? message.content : "";
    const r = message?.reasoning_content ?? message?.reasoning;
    const count = tokenCount(prompt, content, typeof r === "string" ? r : "", parsed.usage ?? null, toolCallText(message));
    // The model the client asked for, and the usage the platform bills (its own count when the upstream's is not believed).
    const answer = { ...parsed, model: body.model, usage: billedUsage(count, parsed.usage ?? null) };
    await meter(count, "completed");
    if (body.stream) {
      // Asked to stream, the upstream answered at once: the client still gets the stream it asked for.
      const events = completionAsEvents(answer, body.stream_options?.include_usage === true, deps.now());
      return new Response(events, { status: 200, headers: { "content-type": "text/event-stream", "cache-control": "no-cache", ...headers } });
    }
    // A string body, not Response.json: @hono/node-server writes a string answer without a stream.
    return new Response(JSON.stringify(answer), { status: upstream.status, headers: { "content-type": "application/json", ...headers } });
  }

  const chunks = upstream.chunks[Symbol.asyncIterator]();
  const watcher = new StreamMeter();
  const relay = new StreamRelay(watcher, {
    model: body.model,
    includeUsage: body.stream_options?.include_usage === true,
    passesHold,
    usage: () => billedUsage(watcher.count(prompt), watcher.usage),
    now: deps.now,
  });
  let metering: Promise<void> | undefined;
  let keepAlive: NodeJS.Timeout | undefined;
  let recheck: NodeJS.Timeout | undefined;
  let progress: NodeJS.Timeout | undefined;
  // Whoever finishes first meters; every other caller waits for that same write, so the body never
  // ends before its usage is written (a cut by a recheck ends the upstream too, and its read finishes).
  const finish = (outcome: "completed" | "stopped" | "failed") => {
    if (!metering) {
      clearInterval(keepAlive);
      clearInterval(recheck);
      clearInterval(progress);
      stop();
      metering = meter(watcher.count(prompt), outcome);
    }
    return metering;
  };
  // A client that goes away while nothing is being read still gets billed for what reached it.
  signal.addEventListener("abort", () => void finish("stopped"), { once: true });

  // The body is ended once, by whoever gets there first: the upstream's end, a cut, a revoked token.
  let sink!: ReadableStreamDefaultController<Uint8Array>;
  let ended = false;
  let sentSinceTick = false;
  const send = (bytes: Uint8Array) => {
    if (ended) return;
    sink.enqueue(bytes);
    sentSinceTick = true;
  };
  const end = () => {
    if (ended) return;
    ended = true;
    sink.close();
  };

  /**
   * Every few seconds while output comes, what was sent so far is kept with the hold (which that also
   * extends): if this process dies, the sweeper charges it (decision 0102), so a stream killed early or
   * between two rechecks loses at most one interval's output (decision 0105).
   */
  let recordedTokens = 0;
  const recordProgress = async () => {
    const count = watcher.count(prompt);
    if (metering || count.completionTokens === recordedTokens) return;
    recordedTokens = count.completionTokens;
    await extendReservation(deps, receiptId, progressOf(caller, model, receiptId, count, deps.now()));
  };

  /**
   * Now and then while a stream runs: its hold is kept from expiring (the sweeper would release it while
   * it still spends, a model thinking in silence included), and a caller whose right to it ended since
   * the call began (a token revoked or expired, a member removed) is stopped.
   */
  const recheckStream = async () => {
    try {
      if (held > 0) await extendReservation(deps, receiptId);
      const refusal = await lostRight(deps, caller);
      if (!refusal || metering) return;
      send(streamError(refusal.message, "authentication_error", refusal.code));
      upstreamAbort.abort();
      upstream.cancel();
      await finish("stopped");
      end();
    } catch (error) {
      console.error(`Checking the stream ${receiptId} failed:`, error instanceof Error ? error.message : error);
    }
  };

  /** The upstream sent an error mid-way: the client gets the platform's own error event, the operator the upstream's words. */
  const failedWith = async (said: string) => {
    console.error(`Upstream of ${model.name} sent an error in ${receiptId}: ${withoutKeys(said)}`);
    send(brokeOff(model.name));
    upstreamAbort.abort();
    upstream.cancel();
    await finish("failed");
    end();
  };

  const out = new ReadableStream<Uint8Array>({
    start(controller) {
      sink = controller;
      // A model still thinking sends nothing for a while: a comment keeps proxies and load balancers from closing the idle connection.
      keepAlive = setInterval(() => {
        if (!sentSinceTick) send(KEEP_ALIVE);
        sentSinceTick = false;
      }, deps.config.streamKeepAliveMs ?? STREAM_KEEP_ALIVE_MS);
      keepAlive.unref();
      recheck = setInterval(() => void recheckStream(), deps.config.streamRecheckMs ?? RECHECK_MS);
      recheck.unref();
      if (held > 0) {
        const record = () =>
          void recordProgress().catch((error) =>
            console.error(`Recording the stream ${receiptId}'s progress failed:`, error instanceof Error ? error.message : error),
          );
        progress = setInterval(record, deps.config.streamProgressMs ?? PROGRESS_MS);
        progress.unref();
      }
    },
    // Reads on until it has something to send: a pull that enqueues nothing is not called again.
    async pull() {
      for (;;) {
        let result: IteratorResult<Uint8Array>;
        try {
          result = await chunks.next();
        } catch (error) {
          const stopped = signal.aborted || upstreamAbort.signal.aborted;
          // A stopped reply simply ends; a broken upstream's ends with an error event, which OpenAI's SDKs
          // throw, so the client knows it is cut short (a body cut mid-way reads as a network fault).
          if (!stopped && isUpstreamTimeout(error)) {
            console.error(`Upstream of ${model.name} sent nothing for ${seconds(timeoutMs)} in ${receiptId}`);
            send(streamError(silentMessage(model.name, timeoutMs), "server_error", "upstream_timeout"));
          } else if (!stopped) {
            console.error(`Upstream of ${model.name} broke off ${receiptId}:`, error instanceof Error ? error.message : error);
            send(brokeOff(model.name));
          }
          await finish(stopped ? "stopped" : "failed");
          end();
          return;
        }
        if (ended) return;
        if (result.done) {
          const rest = relay.end();
          if (rest.length > 0) send(rest);
          if (relay.upstreamError !== null) return void (await failedWith(relay.upstreamError));
          // An upstream that ended without `[DONE]` did not finish its answer: the client is told so.
          if (!watcher.done && !relay.cut) send(brokeOff(model.name));
          // Metered before the body ends: whoever waits for the end (a graceful shutdown) finds the usage written.
          await finish(watcher.done ? "completed" : "failed");
          end();
          return;
        }
        const relayed = relay.push(result.value);
        // The first token is the first output (text, reasoning, a tool call), not the first byte: an
        // upstream's `: PROCESSING` comment or its empty role chunk said nothing yet.
        if (watcher.outputTokens > 0) timing.firstToken();
        if (relayed.length > 0) send(relayed);
        if (relay.upstreamError !== null) return void (await failedWith(relay.upstreamError));
        if (relay.cut) {
          // Its next chunk would have passed what was held: the stream ended there, and what was sent is billed.
          upstreamAbort.abort();
          upstream.cancel();
          await finish("stopped");
          end();
          return;
        }
        if (watcher.done) {
          // `[DONE]`: the answer is whole and the client's stream ends now, whether or not the upstream
          // ends its body (one that kept it open held the client to the silence limit, then failed it).
          await finish("completed");
          end();
          letGoAfterDone(chunks, upstream, upstreamAbort);
          return;
        }
        if (relayed.length > 0) return;
      }
    },
    async cancel(reason) {
      ended = true;
      upstreamAbort.abort(reason);
      upstream.cancel();
      await finish("stopped");
    },
  });
  return new Response(out, {
    status: 200,
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no", ...headers },
  });
}

/** Why a caller admitted earlier may no longer be served, or null. */
async function lostRight(deps: Deps, caller: ChatCaller): Promise<{ message: string; code: string } | null> {
  if (caller.tokenId !== null) {
    if (await apiTokenUsable(deps, caller.tokenId, caller.tokenSecretHash ?? "")) return null;
    return { message: "This API token has been revoked, has expired or its secret was replaced: the reply was stopped.", code: "token_revoked" };
  }
  if (caller.userId === null || (await isMember(deps, caller.orgId, caller.userId))) return null;
  return { message: "You are no longer a member of this organization: the reply was stopped.", code: "membership_revoked" };
}

const KEEP_ALIVE = new TextEncoder().encode(": keep-alive\n\n");
/** How often a running stream's hold is extended and its token checked again. */
const RECHECK_MS = 60_000;
/** How often a running stream's output so far is kept with its hold, when it grew. */
const PROGRESS_MS = 10_000;

/** How long an upstream that sent `[DONE]` may take to end its body before it is cut. */
const AFTER_DONE_MS = 1_000;

/**
 * After `[DONE]`, whatever else the upstream sends is read and dropped until its body ends, so that its
 * connection goes back to the pool for the next request (cutting a body at once closes the connection).
 * An upstream that keeps the body open is cut after AFTER_DONE_MS.
 */
function letGoAfterDone(chunks: AsyncIterator<Uint8Array>, upstream: UpstreamReply, upstreamAbort: AbortController): void {
  const cut = setTimeout(() => {
    upstreamAbort.abort();
    upstream.cancel();
  }, AFTER_DONE_MS);
  cut.unref();
  void (async () => {
    try {
      while (!(await chunks.next()).done);
    } catch {
      // Cut, or broken after its answer was whole: nothing is lost.
    } finally {
      clearTimeout(cut);
    }
  })();
}

/** A limit in seconds as a message gives it ("300 s"; a test's short one "0.2 s"). */
function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** What a client reads when the upstream, having begun, sent nothing for the whole limit. */
function silentMessage(model: string, timeoutMs: number): string {
  return `The model '${model}' stopped answering: nothing came for ${seconds(timeoutMs)}. Try again.`;
}

/** A JSON answer whose upstream went silent mid-answer, or whose connection broke: the client gets none of it, and is told which. */
function brokeOffError(timing: RequestTiming, model: string, receiptId: string, timeoutMs: number, error: unknown): ChatError {
  if (isUpstreamTimeout(error)) {
    timing.fail(504);
    console.error(`Upstream of ${model} sent nothing for ${seconds(timeoutMs)} in ${receiptId}`);
    return new ChatError(504, silentMessage(model, timeoutMs), "server_error", { code: "upstream_timeout" });
  }
  timing.fail(502);
  console.error(`Upstream of ${model} broke off its answer to ${receiptId} before it was complete:`, errorText(error));
  return new ChatError(502, `The model '${model}' broke off its answer before it was complete. Try again.`, "server_error", {
    code: "upstream_stream_interrupted",
  });
}

/** The event that ends a stream whose upstream broke off or failed mid-way (decision 0107). */
function brokeOff(model: string): Uint8Array {
  return streamError(`The model '${model}' broke off its answer before it was complete. Try again.`, "server_error", "upstream_stream_interrupted");
}

/** An error in the stream, as OpenAI sends one (its SDKs throw it): the reply ends after it, without [DONE]. */
function streamError(message: string, type: string, code: string): Uint8Array {
  return new TextEncoder().encode(`data: ${JSON.stringify({ error: { message, type, param: null, code } })}\n\n`);
}

interface Completion {
  id?: unknown;
  created?: unknown;
  usage?: UpstreamUsage | null;
  choices: {
    index?: unknown;
    finish_reason?: unknown;
    logprobs?: unknown;
    message?: { content?: unknown; reasoning_content?: unknown; reasoning?: unknown; tool_calls?: unknown };
  }[];
}

/** A chat completion an upstream sent as JSON, or null when the text is not one (not JSON, cut short, an error). */
function completionIn(text: string): Completion | null {
  try {
    const parsed = JSON.parse(text) as Partial<Completion> | null;
    if (!parsed || typeof parsed !== "object" || !Array.isArray(parsed.choices)) return null;
    return parsed.choices.every((choice) => choice && typeof choice === "object") ? (parsed as Completion) : null;
  } catch {
    return null;
  }
}

/** A JSON completion as the stream a client asked for: per choice its message as one delta and its finish, the usage if asked, `[DONE]`. */
function completionAsEvents(answer: Completion & { model: string }, includeUsage: boolean, now: number): string {
  const base = {
    id: typeof answer.id === "string" ? answer.id : `chatcmpl-${randomBytes(12).toString("hex")}`,
    object: "chat.completion.chunk",
    created: typeof answer.created === "number" ? answer.created : Math.floor(now / 1000),
    model: answer.model,
  };
  const event = (chunk: object) => `data: ${JSON.stringify({ ...base, ...chunk })}\n\n`;
  let out = "";
  answer.choices.forEach((choice, position) => {
    const index = typeof choice.index === "number" ? choice.index : position;
    const { content, reasoning_content, reasoning, tool_calls } = choice.message ?? {};
    const delta: Record<string, unknown> = { role: "assistant", content: typeof content === "string" ? content : null };
    const thought = reasoning_content ?? reasoning;
    if (typeof thought === "string") delta.reasoning_content = thought;
    if (Array.isArray(tool_calls)) delta.tool_calls = tool_calls.map((call: object, i) => ({ index: i, ...call }));
    out += event({ choices: [{ index, delta, logprobs: choice.logprobs ?? null, finish_reason: null }] });
    out += event({ choices: [{ index, delta: {}, finish_reason: typeof choice.finish_reason === "string" ? choice.finish_reason : "stop" }] });
  });
  if (includeUsage) out += event({ choices: [], usage: answer.usage });
  return `${out}data: [DONE]\n\n`;
}

/**
 * The JSON completion a client that asked for no stream gets, made from the stream the upstream sent:
 * `finish_reason: "length"` when it was cut at what was held, the platform's count when the upstream sent no usage.
 */
function assembled(model: string, watcher: StreamMeter, prompt: { content?: unknown }[] | number, cut: boolean, now: number) {
  const toolCalls = watcher.toolCalls;
  // OpenAI's message of a tool call without text has `content: null`.
  const message: Record<string, unknown> = { role: "assistant", content: watcher.content || toolCalls.length === 0 ? watcher.content : null };
  if (watcher.reasoning) message.reasoning_content = watcher.reasoning;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  const logprobs = watcher.logprobs ? { content: watcher.logprobs, refusal: null } : null;
  return {
    id: watcher.id ?? `chatcmpl-${randomBytes(12).toString("hex")}`,
    object: "chat.completion",
    created: watcher.created ?? Math.floor(now / 1000),
    model,
    choices: [{ index: 0, message, logprobs, finish_reason: cut ? "length" : (watcher.finishReason ?? "stop") }],
    usage: billedUsage(watcher.count(prompt), watcher.usage),
  };
}

/** The receipt's row, written for every completion: built once (decision 0087). */
const insertUsageRow = compiledOnce(
  (
    db,
    receiptId: string,
    orgId: number,
    userId: number | null,
    tokenId: number | null,
    model: string,
    rateCardId: string | null,
    promptTokens: number,
    completionTokens: number,
    reasoningTokens: number,
    cost: number,
    estimated: number,
    outcome: "completed" | "stopped" | "failed",
    createdAt: number,
  ) =>
    db.insertInto("chat_usage").values({
      receipt_id: receiptId,
      org_id: orgId,
      user_id: userId,
      token_id: tokenId,
      model,
      rate_card_id: rateCardId,
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      reasoning_tokens: reasoningTokens,
      cost_micros: cost,
      estimated,
      outcome,
      created_at: createdAt,
    }),
);

/**
 * Writes a completion's usage and charge. When the database refuses (an outage, a failover), the reply
 * has reached the client all the same: the write is tried again, waiting longer each time, until it
 * lands or an hour has passed (decision 0100). The first failure logs the whole charge, so an operator
 * can still bill it if the process dies first.
 */
async function meterCompletion(
  deps: Deps,
  caller: ChatCaller,
  model: ModelRow,
  receiptId: string,
  count: TokenCount,
  outcome: "completed" | "stopped" | "failed",
) {
  // The completion's time, not a later attempt's: the day and month its charge counts in, unless written late.
  const metering: Metering = { caller, model, receiptId, count, outcome, at: deps.now() };
  const write = () => writeMetering(deps, metering);
  try {
    await write();
  } catch (error) {
    const charge = JSON.stringify({ orgId: caller.orgId, tokenId: caller.tokenId, model: model.name, ...count, outcome });
    console.error(`Metering of ${receiptId} failed (${errorText(error)}); trying again. The charge: ${charge}`);
    pending.set(receiptId, { deps, write, charge, timer: undefined });
    retryMetering(deps, receiptId, write, deps.now(), METER_RETRY_FIRST_WAIT_MS);
  }
}

/** Charges waiting for a later attempt, by receipt: what a stop tries once more, then names. */
const pending = new Map<string, { deps: Deps; write: () => Promise<void>; charge: string; timer: NodeJS.Timeout | undefined }>();

/**
 * At a stop, before the database closes: each charge still waiting for the database is tried once more,
 * until `deadline` (epoch ms: what the shutdown leaves), and those that still fail, or are not answered
 * in time, are named in the log, one line each, to be billed by hand. A stop used to drop them without a
 * word. Returns how many were not written.
 */
export async function flushPendingMeterings(deps: Deps, deadline = Infinity): Promise<number> {
  let unwritten = 0;
  for (const [receiptId, entry] of pending) {
    if (entry.deps.db !== deps.db) continue;
    clearTimeout(entry.timer);
    pending.delete(receiptId);
    try {
      await byDeadline(
        (async () => {
          if ((await usageRecorded(deps.db, receiptId)).length === 0) await entry.write();
        })(),
        deadline,
      );
    } catch (error) {
      unwritten += 1;
      console.error(`Metering of ${receiptId} not written before the stop (${errorText(error)}); bill it by hand. The charge: ${entry.charge}`);
    }
  }
  return unwritten;
}

const METER_RETRY_FIRST_WAIT_MS = 1_000;
const METER_RETRY_MAX_WAIT_MS = 30_000;
const METER_RETRY_FOR_MS = 60 * 60_000;

const usageRecorded = compiledOnce((db, receiptId: string) => db.selectFrom("chat_usage").select("id").where("receipt_id", "=", receiptId));

function retryMetering(deps: Deps, receiptId: string, write: () => Promise<void>, since: number, waitMs: number) {
  const timer = setTimeout(async () => {
    try {
      // An attempt whose commit landed though its answer was lost: written once is enough.
      if ((await usageRecorded(deps.db, receiptId)).length === 0) await write();
      pending.delete(receiptId);
      console.log(`Metering of ${receiptId} written on a later attempt`);
    } catch (error) {
      // A closed database: the process is stopping, and the charge was logged at the first failure.
      if (deps.now() - since >= METER_RETRY_FOR_MS || /destroyed/.test(errorText(error))) {
        pending.delete(receiptId);
        console.error(`Metering of ${receiptId} abandoned: ${errorText(error)}`);
        return;
      }
      retryMetering(deps, receiptId, write, since, Math.min(waitMs * 2, METER_RETRY_MAX_WAIT_MS));
    }
  }, waitMs);
  timer.unref();
  const entry = pending.get(receiptId);
  if (entry) entry.timer = timer;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** One completion's charge, as the first attempt and any later one write it. */
interface Metering {
  caller: Pick<ChatCaller, "orgId" | "userId" | "tokenId">;
  model: MeteredModel;
  receiptId: string;
  count: TokenCount;
  outcome: "completed" | "stopped" | "failed";
  at: number;
}

/** What a charge needs of its model: the prices as they were when the request was admitted. */
type MeteredModel = Pick<ModelRow, "name" | "rate_card_id" | "input_micros_per_million" | "output_micros_per_million" | "provider">;

/** A running stream's charge so far, as its hold keeps it (JSON): what the sweeper bills if the process dies. */
function progressOf(caller: ChatCaller, model: ModelRow, receiptId: string, count: TokenCount, at: number): string {
  const { orgId, userId, tokenId } = caller;
  const { name, rate_card_id, input_micros_per_million, output_micros_per_million, provider } = model;
  const progress: Omit<Metering, "outcome"> = {
    caller: { orgId, userId, tokenId },
    model: { name, rate_card_id, input_micros_per_million, output_micros_per_million, provider },
    receiptId,
    count,
    at,
  };
  return JSON.stringify(progress);
}

/**
 * A stream whose process died before it ended (its hold expired, not extended): charged, as failed, for
 * what it had recorded it had sent (decisions 0102, 0105). The settlement deletes the hold; an answer
 * metered meanwhile by a process that was only slow keeps its own charge, the receipt's one usage row.
 */
export async function chargeInterrupted(deps: Deps, receiptId: string, progress: string): Promise<void> {
  if ((await usageRecorded(deps.db, receiptId)).length > 0) {
    await release(deps, receiptId);
    return;
  }
  const recorded = JSON.parse(progress) as Omit<Metering, "outcome">;
  await writeMetering(deps, { ...recorded, receiptId, outcome: "failed" });
  console.warn(`Stream ${receiptId} was interrupted (its process stopped): charged for what it had sent by ${new Date(recorded.at).toISOString()}`);
}

/**
 * A charge written this long after its completion is stamped with the time it is written: the usage
 * roll-ups (0092) have counted up to ROLLUP_GRACE_MS ago, and a row behind them was in the ledger and the
 * CSV but never in the usage report. Its usage row, its ledger row and the month counters all take that
 * one stamp, so no report puts it on another day or month than another (audit O, O5).
 */
const LATE_WRITE_MS = ROLLUP_GRACE_MS / 2;

async function writeMetering(deps: Deps, { caller, model, receiptId, count, outcome, at }: Metering): Promise<void> {
  // An answer that failed on the model's side before any output (a stream broken after its first,
  // empty chunk; a process killed before it recorded any) gave the client nothing: its prompt is not
  // charged either (audit N L7). The usage row keeps the tokens and the outcome, at no cost.
  const waived = outcome === "failed" && count.completionTokens === 0;
  const cost = isPriced(model) && !waived ? costMicros(count, model.input_micros_per_million, model.output_micros_per_million) : 0;
  const now = deps.now();
  const stampedAt = now - at > LATE_WRITE_MS ? now : at;
  const usageRow = (db: DB) =>
    insertUsageRow(
      db,
      receiptId,
      caller.orgId,
      caller.userId,
      caller.tokenId,
      model.name,
      model.rate_card_id,
      count.promptTokens,
      count.completionTokens,
      count.reasoningTokens,
      cost,
      count.estimated ? 1 : 0,
      outcome,
      stampedAt,
    );
  if (!isPriced(model)) {
    await usageRow(deps.db);
    return;
  }
  if (waived) {
    // The hold is released and the usage row written, with no ledger row: there is no charge to show.
    await deps.db.transaction().execute(async (trx) => {
      await settleWithin(trx, stampedAt, { orgId: caller.orgId, tokenId: caller.tokenId, receiptId, costMicros: 0 });
      await usageRow(trx);
    });
    return;
  }
  const how = outcome === "completed" ? "" : `, ${outcome}`;
  // The reservation's settlement, the ledger row and the usage row in one transaction: charged exactly once.
  await recordUsage(
    deps,
    {
      orgId: caller.orgId,
      model: model.name,
      rateCardId: model.rate_card_id,
      costMicros: cost,
      at: stampedAt,
      description: `Chat: ${count.promptTokens} input + ${count.completionTokens} output tokens${count.estimated ? " (estimated)" : ""}${how}`,
    },
    async (trx) => {
      await settleWithin(trx, stampedAt, { orgId: caller.orgId, tokenId: caller.tokenId, receiptId, costMicros: cost });
      await usageRow(trx);
    },
  );
}

export async function findReceipt(deps: Deps, orgId: number, receiptId: string): Promise<Receipt | null> {
  const row = await deps.db.selectFrom("chat_usage").selectAll().where("receipt_id", "=", receiptId).where("org_id", "=", orgId).executeTakeFirst();
  if (!row) return null;
  return {
    id: row.receipt_id,
    model: row.model,
    rateCardId: row.rate_card_id,
    inputTokens: row.prompt_tokens,
    outputTokens: row.completion_tokens,
    reasoningTokens: row.reasoning_tokens,
    cost: row.cost_micros / 1e6,
    estimated: row.estimated === 1,
    outcome: row.outcome,
    createdAt: row.created_at,
  };
}
