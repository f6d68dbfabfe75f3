import { describe, expect, it } from "vitest";
import { deltaOf } from "./chat";
import type { SseEvent } from "./sse";
import { createSseParser } from "./sse";

const chunk = (delta: Record<string, string>) => `data: ${JSON.stringify({ choices: [{ index: 0, delta }] })}\n\n`;
const STREAM =
  chunk({ role: "assistant", content: "" }) +
  chunk({ reasoning_content: "Hmm… 🤔" }) +
  "data: {not json\n\n" +
  ": a comment line\n" +
  chunk({ content: "Grüße, " }) +
  "data: " +
  JSON.stringify({ choices: [{ delta: { content: "世界 ✓" } }] }) +
  "\r\n\r\n" +
  `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 5 } })}\n\n` +
  "data: [DONE]\n\n" +
  chunk({ content: "after done" });

function run(parts: Uint8Array[]): SseEvent[] {
  const parser = createSseParser();
  return [...parts.flatMap((p) => parser.push(p)), ...parser.end()];
}

function text(events: SseEvent[]) {
  return events
    .filter((e) => e.type === "chunk")
    .map((e) => deltaOf(e.chunk))
    .reduce((acc, d) => ({ content: acc.content + d.content, reasoning: acc.reasoning + d.reasoning }), { content: "", reasoning: "" });
}

describe("the chat stream parser", () => {
  const bytes = new TextEncoder().encode(STREAM);
  const whole = run([bytes]);

  it("reads the reply from the first choice's delta content, and reasoning sent apart", () => {
    expect(text(whole)).toEqual({ content: "Grüße, 世界 ✓", reasoning: "Hmm… 🤔" });
  });

  it("gives the same events however the bytes are split, at every byte boundary", () => {
    for (let i = 1; i < bytes.length; i++) {
      expect(run([bytes.slice(0, i), bytes.slice(i)])).toEqual(whole);
    }
    expect(run([...bytes].map((b) => new Uint8Array([b])))).toEqual(whole);
  });

  it("ends at [DONE] and ignores everything after it", () => {
    expect(whole.at(-1)).toEqual({ type: "done" });
    expect(whole.filter((e) => e.type === "done")).toHaveLength(1);
    expect(JSON.stringify(whole)).not.toContain("after done");
  });

  it("ignores unparseable lines and comments", () => {
    expect(whole.filter((e) => e.type === "chunk")).toHaveLength(5);
  });

  it("keeps a final usage chunk with an empty choices list, with no text", () => {
    const usage = whole.find((e) => e.type === "chunk" && e.chunk.usage);
    expect(usage).toEqual({ type: "chunk", chunk: { choices: [], usage: { prompt_tokens: 3, completion_tokens: 5 } } });
    expect(deltaOf((usage as { chunk: object }).chunk)).toEqual({ content: "", reasoning: "" });
  });

  it("reads a last line without a newline when the stream ends", () => {
    const events = run([new TextEncoder().encode(`data: ${JSON.stringify({ choices: [{ delta: { content: "x" } }] })}`)]);
    expect(text(events).content).toBe("x");
  });

  it("takes OpenRouter's delta.reasoning as reasoning too", () => {
    expect(deltaOf({ choices: [{ delta: { reasoning: "r" } }] })).toEqual({ content: "", reasoning: "r" });
  });
});
