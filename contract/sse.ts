import { createParser } from "eventsource-parser";
import type { ChatChunk } from "./chat";

/**
 * The chat stream of SPEC §4: server-sent events whose data is a JSON chunk, `[DONE]` ending the
 * stream, unparseable data ignored. The event framing is eventsource-parser's (the WHATWG rules:
 * comments, CRLF, multi-line data); bytes arrive split anywhere, inside a line or a multi-byte
 * character, so they are decoded in stream mode before it sees them. One parser for the console's
 * reader and the platform's meter.
 */
/**
 * A stream that has sent nothing for one tick of this sends a comment (`: keep-alive`) at the next:
 * it is never silent for two. The console's reader takes three as a connection lost (decision 0134).
 */
export const STREAM_KEEP_ALIVE_MS = 15_000;

export type SseEvent = { type: "chunk"; chunk: ChatChunk } | { type: "done" } | { type: "comment"; text: string };

export interface SseParser {
  push(bytes: Uint8Array): SseEvent[];
  /** The last event, when the stream ended without its blank line. */
  end(): SseEvent[];
}

/**
 * `comments`: also yields the stream's comment lines (`: keep-alive`), for a relay that passes an
 * upstream's keep-alives on; a reader has no use for them.
 */
export function createSseParser(options: { comments?: boolean } = {}): SseParser {
  const decoder = new TextDecoder();
  let finished = false;
  let pending: SseEvent[] = [];

  const parser = createParser({
    onComment: options.comments
      ? (text) => {
          if (!finished) pending.push({ type: "comment", text });
        }
      : undefined,
    onEvent({ data }) {
      if (finished) return;
      if (data.trim() === "[DONE]") {
        finished = true;
        pending.push({ type: "done" });
        return;
      }
      try {
        const chunk = JSON.parse(data) as unknown;
        if (chunk && typeof chunk === "object") pending.push({ type: "chunk", chunk: chunk as ChatChunk });
      } catch {
        // Not JSON: nothing to read.
      }
    },
  });

  function take(): SseEvent[] {
    const events = pending;
    pending = [];
    return events;
  }

  return {
    push(bytes) {
      parser.feed(decoder.decode(bytes, { stream: true }));
      return take();
    },
    end() {
      // A blank line completes an event left open; after a complete one it dispatches nothing.
      parser.feed(`${decoder.decode()}\n\n`);
      return take();
    },
  };
}
