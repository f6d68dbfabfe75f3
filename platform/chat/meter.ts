import { countTokens } from "gpt-tokenizer";
import type { UpstreamUsage } from "@contract/chat";
import { deltaOf } from "@contract/chat";
import { createSseParser } from "@contract/sse";
import type { SseEvent } from "@contract/sse";
import { messageText } from "../providers/upstream-builtin";

/** Token figures of one completion, from the upstream's usage or counted here (then `estimated`). */
export interface TokenCount {
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  estimated: boolean;
}

/** The per-message overhead of the chat format (role and separators), as OpenAI's cookbook counts it. */
const MESSAGE_OVERHEAD = 4;

export function countPromptTokens(messages: { content: unknown }[]): number {
  return messages.reduce((sum, m) => sum + countTokens(messageText(m.content)) + MESSAGE_OVERHEAD, 0) + 3;
}

/** The characters of a request's messages, checked against MAX_REQUEST_CHARS before any counting. */
export function requestChars(messages: { content: unknown }[]): number {
  return messages.reduce((sum, m) => sum + messageText(m.content).length, 0);
}

/** Characters tokenized between two yields to the event loop: a few milliseconds of work. */
const SLICE_CHARS = 16_000;

/**
 * countPromptTokens without holding the event loop: long texts are counted slice by slice, yielding
 * between slices, so one tenant's huge prompt does not stall everyone else's requests. A cut inside a
 * word may count a token more than the whole would: the worst case errs on the side of holding more.
 */
export async function countPromptTokensAsync(messages: { content: unknown }[]): Promise<number> {
  let sum = 3;
  for (const m of messages) {
    const text = messageText(m.content);
    sum += MESSAGE_OVERHEAD;
    for (let i = 0; i < text.length; i += SLICE_CHARS) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      sum += countTokens(text.slice(i, i + SLICE_CHARS));
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

/**
 * Watches an SSE chat stream go by (without changing it) and keeps what metering needs: the usage
 * chunk if the upstream sent one, the text generated so far, and whether `[DONE]` arrived.
 */
export class StreamMeter {
  private parser = createSseParser();
  content = "";
  reasoning = "";
  usage: UpstreamUsage | null = null;
  done = false;
  /** Output tokens so far, counted delta by delta (to cut a stream that passes its reservation). */
  outputTokens = 0;
  /** What a JSON completion assembled from the stream needs. */
  id: string | null = null;
  created: number | null = null;
  finishReason: string | null = null;

  push(bytes: Uint8Array): void {
    this.read(this.parser.push(bytes));
  }

  /** The stream has ended: reads an event left without its blank line. */
  end(): void {
    this.read(this.parser.end());
  }

  private read(events: SseEvent[]): void {
    for (const event of events) {
      if (event.type === "done") {
        this.done = true;
        continue;
      }
      if (event.chunk.usage) this.usage = event.chunk.usage;
      const raw = event.chunk as { id?: unknown; created?: unknown; choices?: { finish_reason?: unknown }[] };
      if (typeof raw.id === "string") this.id = raw.id;
      if (typeof raw.created === "number") this.created = raw.created;
      const finish = raw.choices?.[0]?.finish_reason;
      if (typeof finish === "string") this.finishReason = finish;
      const delta = deltaOf(event.chunk);
      this.content += delta.content;
      this.reasoning += delta.reasoning;
      if (delta.content) this.outputTokens += countTokens(delta.content);
      if (delta.reasoning) this.outputTokens += countTokens(delta.reasoning);
    }
  }

  count(messages: { content: unknown }[] | number): TokenCount {
    return tokenCount(messages, this.content, this.reasoning, this.usage);
  }
}

/** `messages`, or their prompt tokens already counted (then not counted again). */
export function tokenCount(messages: { content: unknown }[] | number, content: string, reasoning: string, usage: UpstreamUsage | null): TokenCount {
  const reasoningText = reasoning + thinkText(content);
  if (usage && typeof usage.prompt_tokens === "number" && typeof usage.completion_tokens === "number") {
    return {
      promptTokens: usage.prompt_tokens,
      completionTokens: usage.completion_tokens,
      reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? (reasoningText ? countTokens(reasoningText) : 0),
      estimated: false,
    };
  }
  return {
    promptTokens: typeof messages === "number" ? messages : countPromptTokens(messages),
    completionTokens: countTokens(content) + countTokens(reasoning),
    reasoningTokens: reasoningText ? countTokens(reasoningText) : 0,
    estimated: true,
  };
}

/** Micro-dollars for a completion at a rate card priced in micro-dollars per million tokens. */
export function costMicros(count: Pick<TokenCount, "promptTokens" | "completionTokens">, inputPerMillion: number, outputPerMillion: number): number {
  return Math.round((count.promptTokens * inputPerMillion + count.completionTokens * outputPerMillion) / 1e6);
}

/**
 * Rewrites the `model` of each SSE data line to the name the client asked for (the upstream's own id
 * is not the client's business). Works on whole lines: a line split across chunks waits for its end.
 */
export class ModelRenamer {
  private decoder = new TextDecoder();
  private encoder = new TextEncoder();
  private partial = "";

  constructor(private readonly model: string) {}

  push(bytes: Uint8Array): Uint8Array {
    const text = this.partial + this.decoder.decode(bytes, { stream: true });
    const cut = text.lastIndexOf("\n") + 1;
    this.partial = text.slice(cut);
    return this.encoder.encode(this.rename(text.slice(0, cut)));
  }

  end(): Uint8Array {
    const rest = this.partial + this.decoder.decode();
    this.partial = "";
    return this.encoder.encode(this.rename(rest));
  }

  private rename(lines: string): string {
    if (!lines.includes('"model"')) return lines;
    return lines
      .split("\n")
      .map((line) => {
        if (!line.startsWith("data:") || !line.includes('"model"')) return line;
        const carriage = line.endsWith("\r") ? "\r" : "";
        try {
          const chunk = JSON.parse(line.slice(5, line.length - carriage.length)) as unknown;
          if (!chunk || typeof chunk !== "object" || !("model" in chunk)) return line;
          return `data: ${JSON.stringify({ ...chunk, model: this.model })}${carriage}`;
        } catch {
          return line;
        }
      })
      .join("\n");
  }
}
