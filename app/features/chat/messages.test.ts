import { describe, expect, it } from "vitest";
import type { ChatMessage } from "./messages";
import { apiError, finishReasonOf, toWire, truncateAfter } from "./messages";

const msg = (id: string, role: "user" | "assistant", content: string): ChatMessage => ({ id, role, content, reasoning: "", timestamp: 0, status: "done" });

describe("chat history", () => {
  it("regenerating a user message keeps everything up to it and drops what follows", () => {
    const list = [msg("1", "user", "a"), msg("2", "assistant", "b"), msg("3", "user", "c"), msg("4", "assistant", "d")];
    expect(truncateAfter(list, "3").map((m) => m.id)).toEqual(["1", "2", "3"]);
    expect(truncateAfter(list, "1").map((m) => m.id)).toEqual(["1"]);
  });

  it("sends answers without their reasoning and leaves out empty replies", () => {
    expect(toWire([msg("1", "user", "q"), msg("2", "assistant", "<think>hm</think>A"), msg("3", "assistant", "<think>only")])).toEqual([
      { role: "user", content: "q" },
      { role: "assistant", content: "A" },
    ]);
  });

  it("sends back a finished reply that is just the start of a tag, so two questions are not merged", () => {
    expect(toWire([msg("1", "user", "Which sign is less-than?"), msg("2", "assistant", "<"), msg("3", "user", "And greater?")])).toEqual([
      { role: "user", content: "Which sign is less-than?" },
      { role: "assistant", content: "<" },
      { role: "user", content: "And greater?" },
    ]);
  });

  it("sends back an answer that mentions </think> or shows the tags in code as written", () => {
    const mention = "A lone `</think>` ends the block.";
    const code = "Strip it:\n```python\nre.sub(r'<think>.*?</think>', '', text)\n```";
    const apart: ChatMessage = { ...msg("4", "assistant", "The block ends with </think> here."), reasoning: "Thought apart" };
    expect(
      toWire([msg("1", "user", "q"), msg("2", "assistant", mention), msg("3", "user", "r"), msg("4", "assistant", code), msg("5", "user", "s"), apart]),
    ).toEqual([
      { role: "user", content: "q" },
      { role: "assistant", content: mention },
      { role: "user", content: "r" },
      { role: "assistant", content: code },
      { role: "user", content: "s" },
      { role: "assistant", content: "The block ends with </think> here." },
    ]);
  });

  it("joins a message whose send failed to the next, so user and assistant still alternate", () => {
    const failed = [msg("1", "user", "first"), msg("2", "assistant", ""), msg("3", "user", "second"), msg("4", "user", "third")];
    expect(toWire(failed)).toEqual([{ role: "user", content: "first\n\nsecond\n\nthird" }]);
    expect(toWire([msg("1", "user", "q"), msg("2", "assistant", "A"), msg("3", "user", "r")]).map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  });
});

describe("how a streamed reply ended", () => {
  it("reads the first choice's finish_reason, so a reply cut at its length limit is told apart", () => {
    expect(finishReasonOf({ choices: [{ index: 0, delta: {}, finish_reason: "length" }] })).toBe("length");
    expect(finishReasonOf({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })).toBe("stop");
    expect(finishReasonOf({ choices: [{ index: 0, delta: { content: "a" }, finish_reason: null }] })).toBeNull();
    expect(finishReasonOf({ choices: [], usage: {} })).toBeNull();
    expect(finishReasonOf({ choices: null })).toBeNull();
    expect(finishReasonOf(null)).toBeNull();
  });
});

describe("chat errors", () => {
  it("shows the server's error.message, else 'API error: {status text}'", async () => {
    expect(await apiError(new Response(JSON.stringify({ error: { message: "Balance too low" } }), { status: 402 }))).toEqual({
      message: "Balance too low",
      code: null,
    });
    expect(await apiError(new Response("<html>", { status: 500, statusText: "Internal Server Error" }))).toEqual({
      message: "API error: Internal Server Error",
      code: null,
    });
    expect(await apiError(new Response(JSON.stringify({ error: "Not a member" }), { status: 403 }))).toEqual({ message: "Not a member", code: null });
  });

  it("keeps the error's code, which says a model was removed", async () => {
    const body = { error: { message: "The model 'x' does not exist", type: "invalid_request_error", param: "model", code: "model_not_found" } };
    expect(await apiError(new Response(JSON.stringify(body), { status: 404 }))).toEqual({ message: "The model 'x' does not exist", code: "model_not_found" });
  });
});
