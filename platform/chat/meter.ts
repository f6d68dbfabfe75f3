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
      const delta = deltaOf(event.chunk);
      this.content += delta.content;
      this.reasoning += delta.reasoning;
    }
  }

  count(messages: { content: unknown }[]): TokenCount {
    return tokenCount(messages, this.content, this.reasoning, this.usage);
  }
}

export function tokenCount(messages: { content: unknown }[], content: string, reasoning: string, usage: UpstreamUsage | null): TokenCount {
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
    promptTokens: countPromptTokens(messages),
    completionTokens: countTokens(content) + countTokens(reasoning),
    reasoningTokens: reasoningText ? countTokens(reasoningText) : 0,
    estimated: true,
  };
}

/** Micro-dollars for a completion at a rate card priced in micro-dollars per million tokens. */
export function costMicros(count: Pick<TokenCount, "promptTokens" | "completionTokens">, inputPerMillion: number, outputPerMillion: number): number {
  return Math.round((count.promptTokens * inputPerMillion + count.completionTokens * outputPerMillion) / 1e6);
}
