/**
 * The chat stream of SPEC §4: server-sent lines starting with 'data: ', a `[DONE]` line ending the
 * stream, unparseable lines ignored. Bytes arrive split anywhere (inside a line, inside a multi-byte
 * character), so they are decoded in stream mode and only complete lines are read.
 */
export type SseEvent = { type: "chunk"; chunk: ChatChunk } | { type: "done" };

export interface ChatChunk {
  choices?: { delta?: { content?: unknown; reasoning_content?: unknown; reasoning?: unknown } }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}

export interface SseParser {
  push(bytes: Uint8Array): SseEvent[];
  /** The last line, when the stream ended without a newline. */
  end(): SseEvent[];
}

export function createSseParser(): SseParser {
  const decoder = new TextDecoder();
  let buffer = "";
  let finished = false;

  function line(text: string): SseEvent | null {
    if (finished || !text.startsWith("data:")) return null;
    const data = text.slice(text.startsWith("data: ") ? 6 : 5).trim();
    if (data === "[DONE]") {
      finished = true;
      return { type: "done" };
    }
    try {
      const chunk = JSON.parse(data) as unknown;
      return chunk && typeof chunk === "object" ? { type: "chunk", chunk: chunk as ChatChunk } : null;
    } catch {
      return null;
    }
  }

  function drain(): SseEvent[] {
    const events: SseEvent[] = [];
    let newline: number;
    while ((newline = buffer.indexOf("\n")) !== -1) {
      const event = line(buffer.slice(0, newline).replace(/\r$/, ""));
      buffer = buffer.slice(newline + 1);
      if (event) events.push(event);
    }
    return events;
  }

  return {
    push(bytes) {
      buffer += decoder.decode(bytes, { stream: true });
      return drain();
    },
    end() {
      buffer += decoder.decode();
      const events = drain();
      const last = line(buffer.replace(/\r$/, ""));
      buffer = "";
      return last ? [...events, last] : events;
    },
  };
}

/** The reply text and the reasoning sent apart (`reasoning_content` as vLLM and DeepSeek, `reasoning` as OpenRouter). */
export function deltaOf(chunk: ChatChunk): { content: string; reasoning: string } {
  const delta = chunk.choices?.[0]?.delta;
  const content = typeof delta?.content === "string" ? delta.content : "";
  const reasoning = typeof delta?.reasoning_content === "string" ? delta.reasoning_content : typeof delta?.reasoning === "string" ? delta.reasoning : "";
  return { content, reasoning };
}
