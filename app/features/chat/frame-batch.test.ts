import { describe, expect, it } from "vitest";
import type { Frames } from "./frame-batch";
import { frameBatch } from "./frame-batch";
import type { ReplyText } from "./read-reply";
import { readReply } from "./read-reply";

/** Frames that come only when the test says so, as the screen's refresh would between network reads. */
function testFrames() {
  const waiting = new Map<number, () => void>();
  let handles = 0;
  const frames: Frames = {
    request: (callback) => {
      waiting.set(++handles, callback);
      return handles;
    },
    cancel: (handle) => void waiting.delete(handle),
  };
  const nextFrame = () => {
    const callbacks = [...waiting.values()];
    waiting.clear();
    for (const callback of callbacks) callback();
  };
  return { frames, nextFrame, waiting: () => waiting.size };
}

/** A reply's body: each piece its own network read, all of them arrived before the next frame. */
function body(pieces: string[], end = "data: [DONE]\n\n") {
  const encoder = new TextEncoder();
  const chunks = [...pieces.map((content) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`), end];
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  }).getReader();
}

describe("a streamed reply's text", () => {
  it("is shown once a frame: 3,000 reads within one frame give one update, with the whole text", async () => {
    const { frames, nextFrame } = testFrames();
    const updates: ReplyText[] = [];
    const streamed = frameBatch<ReplyText>((text) => updates.push(text), frames);
    const pieces = Array.from({ length: 3_000 }, (_, i) => `${i} `);
    const reading = readReply(body(pieces), (text) => streamed.push(text));
    await reading;
    expect(updates).toHaveLength(0);
    nextFrame();
    expect(updates).toEqual([{ content: pieces.join(""), reasoning: "" }]);
    nextFrame();
    expect(updates).toHaveLength(1);
  });

  it("keeps what came after the last frame when the stream ends, is stopped or fails: the flush applies it at once", () => {
    const { frames, nextFrame, waiting } = testFrames();
    const updates: string[] = [];
    const streamed = frameBatch<string>((text) => updates.push(text), frames);
    streamed.push("Hel");
    nextFrame();
    streamed.push("Hello");
    streamed.push("Hello, world");
    streamed.flush();
    expect(updates).toEqual(["Hel", "Hello, world"]);
    expect(waiting()).toBe(0);
    nextFrame();
    streamed.flush();
    expect(updates).toEqual(["Hel", "Hello, world"]);
  });

  it("is updated again at the next frame once more comes", () => {
    const { frames, nextFrame } = testFrames();
    const updates: string[] = [];
    const streamed = frameBatch<string>((text) => updates.push(text), frames);
    for (const text of ["a", "ab", "abc"]) {
      streamed.push(text);
      nextFrame();
    }
    expect(updates).toEqual(["a", "ab", "abc"]);
  });
});

describe("reading a reply", () => {
  it("says how it ended: whole at [DONE], or the server's error with what came", async () => {
    expect(await readReply(body(["Hi", " there"]), () => {})).toEqual({ content: "Hi there", reasoning: "", done: true, cutAtLimit: false, failure: null });
    const broken = await readReply(body(["Hi"], `data: ${JSON.stringify({ error: { message: "The model broke off" } })}\n\n`), () => {});
    expect(broken).toEqual({ content: "Hi", reasoning: "", done: false, cutAtLimit: false, failure: "The model broke off" });
  });
});
