import { randomBytes } from "node:crypto";
import type { ChatRequest, Receipt } from "@contract/chat";
import { chatRequestSchema, RECEIPT_HEADER } from "@contract/chat";
import type { Deps } from "../context";
import type { ModelRow } from "../db/schema";
import { findModel, isBuiltin, isPriced } from "../models/service";
import { beginRequest } from "../models/metrics";
import type { UpstreamReply } from "../providers/upstream";
import { postChatCompletion, replyOf } from "../providers/upstream";
import { builtinChatCompletion } from "../providers/upstream-builtin";
import { canSpend } from "../billing/accounts";
import { recordUsage } from "../billing/charges";
import type { TokenCount } from "./meter";
import { costMicros, StreamMeter, tokenCount } from "./meter";

/** Who a completion is billed to: a member through the console, or an API token. */
export interface ChatCaller {
  orgId: number;
  userId: number | null;
  tokenId: number | null;
}

/** An OpenAI-shaped refusal: `{"error": {"message", "type"}}` with its status (and Retry-After). */
export class ChatError extends Error {
  constructor(
    readonly status: 400 | 401 | 402 | 403 | 404 | 429 | 500 | 502 | 503 | 504,
    message: string,
    readonly type: string,
    readonly retryAfter: string | null = null,
  ) {
    super(message);
  }
}

export function chatErrorResponse(error: ChatError): Response {
  const headers = new Headers({ "content-type": "application/json" });
  if (error.retryAfter) headers.set("retry-after", error.retryAfter);
  return new Response(JSON.stringify({ error: { message: error.message, type: error.type } }), { status: error.status, headers });
}

export function parseChatRequest(body: unknown): ChatRequest {
  const parsed = chatRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ChatError(400, `${issue.path.join(".") || "body"}: ${issue.message}`, "invalid_request_error");
  }
  return parsed.data;
}

export { RECEIPT_HEADER };

async function upstreamMessage(response: UpstreamReply): Promise<string> {
  const text = await response.text().catch(() => "");
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof body.error === "string") return body.error;
    if (typeof body.error?.message === "string") return body.error.message;
    if (typeof body.message === "string") return body.message;
  } catch {
    // not JSON
  }
  return text.trim().slice(0, 300) || `Upstream answered ${response.status}`;
}

/**
 * One chat completion: checks the model and the organization's balance, forwards to the model's
 * upstream (or the built-in model), passes the answer through as it arrives, and meters what was
 * generated when the answer ends: finished, broken, or stopped by the client.
 */
export async function chatCompletion(deps: Deps, caller: ChatCaller, body: ChatRequest, signal: AbortSignal): Promise<Response> {
  const model = await findModel(deps, body.model);
  if (!model) throw new ChatError(404, `The model '${body.model}' does not exist`, "invalid_request_error");
  if (model.status_override === "maintenance") throw new ChatError(503, `The model '${model.name}' is under maintenance`, "service_unavailable");
  if (isPriced(model) && !(await canSpend(deps, caller.orgId))) {
    throw new ChatError(402, "Your organization's balance is not above zero. Add funds to use this model.", "insufficient_quota");
  }

  const upstreamAbort = new AbortController();
  const onClientAbort = () => upstreamAbort.abort(signal.reason);
  if (signal.aborted) onClientAbort();
  signal.addEventListener("abort", onClientAbort, { once: true });
  const stop = () => signal.removeEventListener("abort", onClientAbort);

  // Ask for the usage chunk, so metering uses the upstream's own figures whenever it has them.
  const forwarded: ChatRequest = body.stream ? { ...body, stream_options: { ...body.stream_options, include_usage: true } } : body;
  const timing = beginRequest(deps, model.name, caller.orgId);
  let upstream: UpstreamReply;
  try {
    upstream = isBuiltin(model)
      ? replyOf(builtinChatCompletion(forwarded as Parameters<typeof builtinChatCompletion>[0], model.name, upstreamAbort.signal, deps.now()))
      : await postChatCompletion(model, forwarded, upstreamAbort.signal);
  } catch (error) {
    stop();
    timing.fail(signal.aborted ? "aborted" : 502);
    if (signal.aborted) throw new ChatError(400, "The request was cancelled", "request_cancelled");
    console.error(`Upstream of ${model.name} unreachable:`, error instanceof Error ? error.message : error);
    throw new ChatError(502, `The model '${model.name}' could not be reached`, "upstream_error");
  }

  if (upstream.status < 200 || upstream.status >= 300) {
    stop();
    timing.fail(upstream.status);
    const message = await upstreamMessage(upstream);
    const retryAfter = upstream.header("retry-after");
    if (upstream.status === 429) throw new ChatError(429, message, "rate_limit_exceeded", retryAfter);
    if (upstream.status === 503) throw new ChatError(503, message, "service_unavailable", retryAfter);
    if (upstream.status >= 400 && upstream.status < 500) throw new ChatError(400, message, "invalid_request_error");
    throw new ChatError(502, message, "upstream_error");
  }

  const receiptId = `rcpt_${randomBytes(12).toString("hex")}`;
  const meter = (count: TokenCount, outcome: "completed" | "stopped" | "failed") => {
    timing.end(outcome, count.completionTokens);
    return meterCompletion(deps, caller, model, receiptId, count, outcome);
  };

  const contentType = upstream.header("content-type") ?? "application/json";
  const streaming = Boolean(body.stream) && contentType.includes("text/event-stream");
  if (!streaming) {
    stop();
    const text = await upstream.text();
    let usage = null;
    let content = "";
    let reasoning = "";
    try {
      const parsed = JSON.parse(text) as {
        usage?: null;
        choices?: { message?: { content?: unknown; reasoning_content?: unknown; reasoning?: unknown } }[];
      };
      usage = parsed.usage ?? null;
      const message = parsed.choices?.[0]?.message;
      content = typeof message?.content === "string" ? message.content : "";
      const r = message?.reasoning_content ?? message?.reasoning;
      reasoning = typeof r === "string" ? r : "";
    } catch {
      // An unparseable body is still passed on; it is billed for what it says it generated: nothing but the prompt.
    }
    await meter(tokenCount(body.messages, content, reasoning, usage), "completed");
    return new Response(text, {
      status: upstream.status,
      headers: { "content-type": contentType, [RECEIPT_HEADER]: receiptId },
    });
  }

  const chunks = upstream.chunks[Symbol.asyncIterator]();
  const watcher = new StreamMeter();
  let metered = false;
  const finish = async (outcome: "completed" | "stopped" | "failed") => {
    if (metered) return;
    metered = true;
    stop();
    await meter(watcher.count(body.messages), outcome);
  };
  // A client that goes away while nothing is being read still gets billed for what reached it.
  signal.addEventListener("abort", () => void finish("stopped"), { once: true });

  const out = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let result: IteratorResult<Uint8Array>;
      try {
        result = await chunks.next();
      } catch (error) {
        const stopped = signal.aborted || upstreamAbort.signal.aborted;
        await finish(stopped ? "stopped" : "failed");
        // A stopped reply simply ends; a broken upstream breaks the stream, so the client knows it is cut short.
        if (stopped) controller.close();
        else controller.error(error);
        return;
      }
      if (result.done) {
        watcher.end();
        controller.close();
        await finish(watcher.done ? "completed" : "failed");
        return;
      }
      // Passed on before it is parsed for metering: the reader waits for nothing.
      timing.firstToken();
      controller.enqueue(result.value);
      watcher.push(result.value);
    },
    async cancel(reason) {
      upstreamAbort.abort(reason);
      upstream.cancel();
      await finish("stopped");
    },
  });
  return new Response(out, {
    status: 200,
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no", [RECEIPT_HEADER]: receiptId },
  });
}

async function meterCompletion(deps: Deps, caller: ChatCaller, model: ModelRow, receiptId: string, count: TokenCount, outcome: "completed" | "stopped" | "failed") {
  const cost = isPriced(model) ? costMicros(count, model.input_micros_per_million, model.output_micros_per_million) : 0;
  try {
    // The ledger first: once a receipt can be read, the completion has been billed.
    if (isPriced(model)) {
      const how = outcome === "completed" ? "" : `, ${outcome}`;
      await recordUsage(deps, {
        orgId: caller.orgId,
        model: model.name,
        rateCardId: model.rate_card_id,
        costMicros: cost,
        description: `Chat: ${count.promptTokens} input + ${count.completionTokens} output tokens${count.estimated ? " (estimated)" : ""}${how}`,
      });
    }
    await deps.db
      .insertInto("chat_usage")
      .values({
        receipt_id: receiptId,
        org_id: caller.orgId,
        user_id: caller.userId,
        token_id: caller.tokenId,
        model: model.name,
        rate_card_id: model.rate_card_id,
        prompt_tokens: count.promptTokens,
        completion_tokens: count.completionTokens,
        reasoning_tokens: count.reasoningTokens,
        cost_micros: cost,
        estimated: count.estimated ? 1 : 0,
        outcome,
        created_at: deps.now(),
      })
      .execute();
  } catch (error) {
    console.error(`Metering of ${receiptId} failed:`, error);
  }
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
