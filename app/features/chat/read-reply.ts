import { finishReasonOf } from "./messages";
import { createSseParser, deltaOf } from "./sse";

/** A reply's text so far: its answer and the reasoning sent apart from it. */
export interface ReplyText {
  content: string;
  reasoning: string;
}

/** How a reply's stream ended, with its whole text. */
export interface ReadReply extends ReplyText {
  /** `[DONE]` came: the reply is whole (or cut at its length limit). */
  done: boolean;
  cutAtLimit: boolean;
  /** The error event a stream may end with (a revoked token, a model that broke off): its message is the server's. */
  failure: string | null;
}

/**
 * Reads a reply's stream (SPEC §4) to `[DONE]` or its end, handing `onText` the text so far after each
 * read that added to it. A read that throws (Stop) throws out of here.
 */
export async function readReply(body: { read: () => Promise<ReadableStreamReadResult<Uint8Array>> }, onText: (text: ReplyText) => void): Promise<ReadReply> {
  const parser = createSseParser();
  let content = "";
  let reasoning = "";
  let done = false;
  let cutAtLimit = false;
  let failure: string | null = null;
  while (!done) {
    const { value, done: ended } = await body.read();
    const before = content.length + reasoning.length;
    const events = ended ? parser.end() : parser.push(value);
    for (const event of events) {
      if (event.type === "done") {
        done = true;
        break;
      }
      if (event.type !== "chunk") continue;
      const { error } = event.chunk as { error?: { message?: unknown } };
      if (error) {
        if (typeof error.message === "string") failure = error.message;
        continue;
      }
      if (finishReasonOf(event.chunk) === "length") cutAtLimit = true;
      const delta = deltaOf(event.chunk);
      content += delta.content;
      reasoning += delta.reasoning;
    }
    if (content.length + reasoning.length > before) onText({ content, reasoning });
    if (ended) break;
  }
  return { content, reasoning, done, cutAtLimit, failure };
}
