import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { readUntilSilent, STREAM_SILENCE_MS } from "./silence";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A body that sends what it is given and never closes, as a connection lost without a FIN. */
function openBody() {
  let push!: (chunk: string) => void;
  let cancelled = false;
  const body = new ReadableStream<string>({
    start(controller) {
      push = (chunk) => controller.enqueue(chunk);
    },
    cancel() {
      cancelled = true;
    },
  });
  return { reader: body.getReader(), push: (chunk: string) => push(chunk), cancelled: () => cancelled };
}

describe("a reply's body that goes silent", () => {
  it("ends after 45 s of nothing, cancelling the body, and says it went silent", async () => {
    const { reader, push, cancelled } = openBody();
    const body = readUntilSilent(reader);
    push("data: a\n\n");
    expect(await body.read()).toEqual({ done: false, value: "data: a\n\n" });
    const next = body.read();
    await vi.advanceTimersByTimeAsync(STREAM_SILENCE_MS - 1);
    expect(body.silent).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await next).toEqual({ done: true, value: undefined });
    expect(body.silent).toBe(true);
    expect(cancelled()).toBe(true);
  });

  it("counts the silence afresh from each chunk, keep-alive comments included", async () => {
    const { reader, push } = openBody();
    const body = readUntilSilent(reader);
    for (let i = 0; i < 4; i++) {
      const read = body.read();
      await vi.advanceTimersByTimeAsync(15_000);
      push(": keep-alive\n\n");
      expect((await read).done).toBe(false);
    }
    expect(body.silent).toBe(false);
  });
});
