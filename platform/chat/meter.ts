import { countTokens } from "gpt-tokenizer";
import type { ChatChunk, UpstreamUsage } from "@contract/chat";
import { deltaOf } from "@contract/chat";
import { createSseParser } from "@contract/sse";
import type { SseEvent } from "@contract/sse";
import { messageText } from "../providers/upstream-builtin";

/** The output tokens of one chunk's delta (its text, its reasoning and its tool calls), as the meter counts them. */
export function outputTokensOf(chunk: ChatChunk): number {
  const delta = deltaOf(chunk);
  const tools = toolCallText(chunk.choices?.[0]?.delta);
  return (delta.content ? countTokens(delta.content) : 0) + (delta.reasoning ? countTokens(delta.reasoning) : 0) + (tools ? countTokens(tools) : 0);
}

/**
 * The text of the tool calls in a delta or a message (names and arguments, streamed in pieces): output
 * the upstream generates and bills like any other, so the meter counts it and a stream is cut on it too.
 */
export function toolCallText(part: unknown): string {
  if (!part || typeof part !== "object") return "";
  const { tool_calls: calls, function_call: legacy } = part as { tool_calls?: unknown; function_call?: unknown };
  let text = "";
  for (const call of [...(Array.isArray(calls) ? calls : []), legacy]) {
    const fn = (call as { function?: unknown } | null)?.function ?? call;
    if (!fn || typeof fn !== "object") continue;
    const { name, arguments: args } = fn as { name?: unknown; arguments?: unknown };
    if (typeof name === "string") text += name;
    if (typeof args === "string") text += args;
  }
  return text;
}

/** Token figures of one completion, from the upstream's usage or counted here (then `estimated`). */
export interface TokenCount {
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  estimated: boolean;
}

/** The per-message overhead of the chat format (role and separators), as OpenAI's cookbook counts it. */
const MESSAGE_OVERHEAD = 4;

/**
 * What a message puts in the prompt the upstream counts: its text, and the tool calls an earlier
 * assistant turn made (names and arguments), which the request carries back and the upstream bills.
 */
function promptTextOf(m: { content?: unknown }): string {
  return messageText(m.content) + toolCallText(m);
}

export function countPromptTokens(messages: { content?: unknown }[]): number {
  return messages.reduce((sum, m) => sum + countTokens(promptTextOf(m)) + MESSAGE_OVERHEAD, 0) + 3;
}

/** The characters of a request's messages, checked against MAX_REQUEST_CHARS before any counting. */
export function requestChars(messages: { content?: unknown }[]): number {
  return messages.reduce((sum, m) => sum + promptTextOf(m).length, 0);
}

/**
 * What else a request puts in the prompt the upstream counts: the tool (and legacy function)
 * definitions and a response format's schema, written out as JSON. Left out, a request with large
 * tools held far less than it cost (decision 0100).
 */
export function promptExtrasText(body: Record<string, unknown>): string {
  const extras = [body.tools, body.functions, body.response_format].filter((part) => part !== undefined && part !== null);
  return extras.length > 0 ? JSON.stringify(extras) : "";
}

/** The message parts that are not text (images, audio, files): the tokenizer here cannot count them. */
export function mediaPartsOf(messages: { content?: unknown }[]): number {
  let parts = 0;
  for (const m of messages) {
    if (!Array.isArray(m.content)) continue;
    for (const part of m.content) if ((part as { type?: unknown } | null)?.type !== "text") parts += 1;
  }
  return parts;
}

/** Characters tokenized between two yields to the event loop: a few milliseconds of work. */
const SLICE_CHARS = 16_000;

/**
 * countPromptTokens without holding the event loop: long texts are counted slice by slice, yielding
 * between slices, so one tenant's huge prompt does not stall everyone else's requests. A cut inside a
 * word may count a token more than the whole would: the worst case errs on the side of holding more.
 */
export async function countPromptTokensAsync(messages: { content?: unknown }[], extras = ""): Promise<number> {
  let sum = 3 + MESSAGE_OVERHEAD * messages.length;
  const texts = messages.map(promptTextOf);
  if (extras) texts.push(extras);
  for (const text of texts) {
    for (let at = 0; at < text.length; at += SLICE_CHARS) {
      if (at > 0) await new Promise((resolve) => setImmediate(resolve));
      sum += countTokens(text.slice(at, at + SLICE_CHARS));
    }
  }
  return sum;
}

/** The reasoning inside `<think>…</think>` of a content string (closed or not). */
export function thinkText(content: string): string {
  const open = content.indexOf("<think>");
  const close = content.indexOf("</think>");
  if (open === -1) return close === -1 ? "" : content.slice(0, close);
  return close === -1 ? content.slice(open + 7) : content.slice(open + 7, close);
}

/** One tool call of a JSON completion's message. */
export interface AssembledToolCall {
  id: string;
  type: string;
  function: { name: string; arguments: string };
}

/**
 * Watches an SSE chat stream go by (without changing it) and keeps what metering needs: the usage
 * chunk if the upstream sent one, the text generated so far, and whether `[DONE]` arrived.
 */
export class StreamMeter {
  private parser = createSseParser({ comments: true });
  content = "";
  reasoning = "";
  /** The tool calls' names and arguments, as streamed (counted). */
  tools = "";
  /** The tool calls, merged from their pieces by `index`, for a JSON completion assembled from the stream. */
  private calls = new Map<number, AssembledToolCall>();
  /** The per-token log probabilities streamed (`logprobs.content`), or null when the upstream sent none. */
  logprobs: unknown[] | null = null;
  usage: UpstreamUsage | null = null;
  done = false;
  /** Output tokens so far, counted delta by delta (to cut a stream that passes its reservation). */
  outputTokens = 0;
  /** What a JSON completion assembled from the stream needs. */
  id: string | null = null;
  created: number | null = null;
  finishReason: string | null = null;

  /** `assembles`: whether a JSON completion is made from the stream (its tool calls and log probabilities kept), not kept for a relayed one. */
  constructor(private readonly assembles = false) {}

  push(bytes: Uint8Array): void {
    this.read(this.parser.push(bytes));
  }

  /** The stream has ended: reads an event left without its blank line. */
  end(): void {
    this.read(this.parser.end());
  }

  private read(events: SseEvent[]): void {
    for (const event of events) {
      // The answer ends at `[DONE]`: anything an upstream sends after it is no part of it.
      if (this.done) break;
      if (event.type === "done") this.done = true;
      else if (event.type === "chunk") this.readChunk(event.chunk);
    }
  }

  /** One chunk; `tokens`, its output tokens, when the caller counted them already. */
  readChunk(chunk: ChatChunk, tokens = outputTokensOf(chunk)): void {
    if (chunk.usage) this.usage = chunk.usage;
    const raw = chunk as { id?: unknown; created?: unknown; choices?: { finish_reason?: unknown }[] };
    if (typeof raw.id === "string") this.id = raw.id;
    if (typeof raw.created === "number") this.created = raw.created;
    const finish = raw.choices?.[0]?.finish_reason;
    if (typeof finish === "string") this.finishReason = finish;
    const delta = deltaOf(chunk);
    this.content += delta.content;
    this.reasoning += delta.reasoning;
    this.tools += toolCallText(chunk.choices?.[0]?.delta);
    this.outputTokens += tokens;
    if (!this.assembles) return;
    const choice = chunk.choices?.[0] as { delta?: { tool_calls?: unknown }; logprobs?: { content?: unknown } | null } | undefined;
    this.mergeToolCalls(choice?.delta?.tool_calls);
    if (Array.isArray(choice?.logprobs?.content)) (this.logprobs ??= []).push(...(choice.logprobs.content as unknown[]));
  }

  /** The tool calls so far, in their order, as a JSON completion's message gives them. */
  get toolCalls(): AssembledToolCall[] {
    return [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
  }

  /**
   * A delta's tool-call pieces, as OpenAI streams them: the first piece of a call (by `index`) brings its
   * id, type and name, each later one a further piece of its `arguments`.
   */
  private mergeToolCalls(pieces: unknown): void {
    if (!Array.isArray(pieces)) return;
    for (const piece of pieces as { index?: unknown; id?: unknown; type?: unknown; function?: { name?: unknown; arguments?: unknown } }[]) {
      if (!piece || typeof piece !== "object") continue;
      const index = typeof piece.index === "number" ? piece.index : this.calls.size;
      let call = this.calls.get(index);
      if (!call) {
        call = { id: "", type: "function", function: { name: "", arguments: "" } };
        this.calls.set(index, call);
      }
      if (typeof piece.id === "string" && !call.id) call.id = piece.id;
      if (typeof piece.type === "string") call.type = piece.type;
      if (typeof piece.function?.name === "string" && !call.function.name) call.function.name = piece.function.name;
      if (typeof piece.function?.arguments === "string") call.function.arguments += piece.function.arguments;
    }
  }

  count(messages: { content?: unknown }[] | number): TokenCount {
    return tokenCount(messages, this.content, this.reasoning, this.usage, this.tools);
  }
}

/**
 * A token count an upstream may report: a whole number the usage columns (SQL `integer`) hold. Any
 * other figure (10.5, a string, 2^40) is not believed: PostgreSQL refused to store it, which left an
 * answer unbilled, while SQLite stored it as sent.
 */
const MAX_REPORTED_TOKENS = 2 ** 31 - 1;
function isTokenCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 && value <= MAX_REPORTED_TOKENS;
}

/** `messages`, or their prompt tokens already counted (then not counted again). */
export function tokenCount(
  messages: { content?: unknown }[] | number,
  content: string,
  reasoning: string,
  usage: UpstreamUsage | null,
  tools = "",
): TokenCount {
  const reasoningText = reasoning + thinkText(content);
  if (usage && isTokenCount(usage.prompt_tokens) && isTokenCount(usage.completion_tokens)) {
    const reported = usage.completion_tokens_details?.reasoning_tokens;
    return {
      promptTokens: usage.prompt_tokens,
      completionTokens: usage.completion_tokens,
      reasoningTokens: isTokenCount(reported) ? Math.min(reported, usage.completion_tokens) : reasoningText ? countTokens(reasoningText) : 0,
      estimated: false,
    };
  }
  return {
    promptTokens: typeof messages === "number" ? messages : countPromptTokens(messages),
    completionTokens: countTokens(content) + countTokens(reasoning) + (tools ? countTokens(tools) : 0),
    reasoningTokens: reasoningText ? countTokens(reasoningText) : 0,
    estimated: true,
  };
}

/** Micro-dollars for a completion at a rate card priced in micro-dollars per million tokens. */
export function costMicros(count: Pick<TokenCount, "promptTokens" | "completionTokens">, inputPerMillion: number, outputPerMillion: number): number {
  return Math.round((count.promptTokens * inputPerMillion + count.completionTokens * outputPerMillion) / 1e6);
}

/**
 * The usage a client is told, which is what is billed: the upstream's report when it is believed (with
 * its other details, such as cached tokens), else the platform's own count (decision 0138). A report
 * of 10.5 prompt tokens or a reasoning figure of "6" is not shown as if it were the bill.
 */
export function billedUsage(count: TokenCount, reported: UpstreamUsage | null): UpstreamUsage {
  if (count.estimated || !reported) return usageOf(count);
  const reasoning = reported.completion_tokens_details?.reasoning_tokens;
  if (reasoning === count.reasoningTokens || (reasoning === undefined && count.reasoningTokens === 0)) return reported;
  return { ...reported, completion_tokens_details: { ...reported.completion_tokens_details, reasoning_tokens: count.reasoningTokens } };
}

/** A count in the usage shape of an OpenAI answer. */
export function usageOf(count: TokenCount): UpstreamUsage {
  return {
    prompt_tokens: count.promptTokens,
    completion_tokens: count.completionTokens,
    total_tokens: count.promptTokens + count.completionTokens,
    completion_tokens_details: { reasoning_tokens: count.reasoningTokens },
  };
}

export interface RelayOptions {
  /** The model name the client asked for, written into every chunk. */
  model: string;
  /** Whether the client asked for the usage chunk (`stream_options.include_usage`). */
  includeUsage: boolean;
  /** Whether generating this many output tokens would cost more than the request holds. */
  passesHold: (outputTokens: number) => boolean;
  /** The usage the platform bills for what was sent so far (`billedUsage`), which the client is told. */
  usage: () => UpstreamUsage;
  now: () => number;
}

/**
 * What the client reads of an upstream's chat stream, event by event, as OpenAI's API writes it
 * (decision 0098): each chunk with the model name the client asked for; the usage chunk (whose
 * `choices` is empty) only when the client asked for it, which the platform always does for its meter;
 * the platform's own count when the client asked and the upstream sent none. A chunk whose tokens would
 * pass what the request holds is not sent: the stream ends there with `finish_reason: "length"`, the
 * usage if asked, and `[DONE]`, so a client knows its answer was cut and never more is let through.
 * Every chunk read is metered into `meter`.
 */
export class StreamRelay {
  private parser = createSseParser({ comments: true });
  private encoder = new TextEncoder();
  /** Whether the stream was cut here, its next chunk passing what was held. */
  cut = false;
  /**
   * What the upstream said when it sent an error instead of its next chunk, or null. Nothing after it
   * is relayed, nor the error itself: its words are the operator's (decision 0107).
   */
  upstreamError: string | null = null;

  constructor(
    readonly meter: StreamMeter,
    private readonly options: RelayOptions,
  ) {}

  push(bytes: Uint8Array): Uint8Array {
    return this.relay(this.parser.push(bytes));
  }

  /** The upstream ended: relays an event left without its blank line. */
  end(): Uint8Array {
    return this.relay(this.parser.end());
  }

  private relay(events: SseEvent[]): Uint8Array {
    let out = "";
    for (const event of events) {
      // Nothing is relayed after the end: a cut, an error, or the upstream's own `[DONE]`.
      if (this.cut || this.upstreamError !== null || this.meter.done) break;
      if (event.type === "comment") {
        // An upstream's keep-alive: passed on, so that no proxy between the client and here times out while a model thinks.
        out += `: ${event.text.replace(/[\r\n]/g, " ")}\n\n`;
        continue;
      }
      if (event.type === "done") {
        if (this.options.includeUsage && !this.meter.usage) out += this.data(this.usageChunk(this.options.usage()));
        this.meter.done = true;
        out += "data: [DONE]\n\n";
        continue;
      }
      const { error, choices, usage } = event.chunk as { error?: unknown; choices?: unknown; usage?: unknown };
      if (error) {
        const said = typeof error === "string" ? error : (error as { message?: unknown }).message;
        this.upstreamError = typeof said === "string" ? said : JSON.stringify(error);
        break;
      }
      // Only what a client's loop can read (`chunk.choices[0]?.delta`): a ping's `{}` or `choices: null`
      // crashed OpenAI's own SDK examples. A usage report without choices is kept, as a usage chunk.
      if (!Array.isArray(choices) || !choices.every((choice) => choice && typeof choice === "object")) {
        if (!usage || typeof usage !== "object") continue;
        this.meter.readChunk({ ...event.chunk, choices: [] }, 0);
        if (this.options.includeUsage) out += this.data({ ...event.chunk, choices: [], model: this.options.model, usage: this.options.usage() });
        continue;
      }
      const tokens = outputTokensOf(event.chunk);
      if (tokens > 0 && this.options.passesHold(this.meter.outputTokens + tokens)) {
        this.cut = true;
        out += this.data({ ...this.chunkBase(), choices: [{ index: 0, delta: {}, finish_reason: "length" }] });
        if (this.options.includeUsage) out += this.data(this.usageChunk(this.options.usage()));
        out += "data: [DONE]\n\n";
        break;
      }
      this.meter.readChunk(event.chunk, tokens);
      const usageOnly = event.chunk.usage && (event.chunk.choices?.length ?? 0) === 0;
      if (usageOnly && !this.options.includeUsage) continue;
      const chunk = event.chunk.usage ? { ...event.chunk, usage: this.options.usage() } : event.chunk;
      out += this.data("model" in chunk ? { ...chunk, model: this.options.model } : chunk);
    }
    return out ? this.encoder.encode(out) : EMPTY;
  }

  private chunkBase() {
    const created = this.meter.created ?? Math.floor(this.options.now() / 1000);
    return { id: this.meter.id ?? "chatcmpl-cut", object: "chat.completion.chunk", created, model: this.options.model };
  }

  private usageChunk(usage: UpstreamUsage) {
    return { ...this.chunkBase(), choices: [], usage };
  }

  private data(chunk: object): string {
    return `data: ${JSON.stringify(chunk)}\n\n`;
  }
}

const EMPTY = new Uint8Array(0);
