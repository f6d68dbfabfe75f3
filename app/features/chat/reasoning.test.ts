import { describe, expect, it } from "vitest";
import { firstOutsideCode, splitReasoning } from "./reasoning";

describe("splitReasoning", () => {
  it("separates a closed <think> block from the answer", () => {
    expect(splitReasoning("<think>Weigh the options.</think>\n\nThe answer is 42.")).toEqual({
      reasoning: "Weigh the options.",
      answer: "The answer is 42.",
      thinking: false,
    });
    expect(splitReasoning("\n  <think>Weigh.</think>42")).toEqual({ reasoning: "Weigh.", answer: "42", thinking: false });
  });

  it("counts an unclosed block as thinking only, with no answer yet", () => {
    expect(splitReasoning("<think>Still weighing")).toEqual({ reasoning: "Still weighing", answer: "", thinking: true });
  });

  it("shows nothing of an opening tag still arriving", () => {
    expect(splitReasoning("<thi", "", true)).toEqual({ reasoning: "", answer: "", thinking: false });
    expect(splitReasoning("<", "", true)).toEqual({ reasoning: "", answer: "", thinking: false });
  });

  it("shows a finished reply that looks like the start of a tag as it was sent", () => {
    for (const reply of ["<", "<t", "<thi", "<think"]) expect(splitReasoning(reply)).toEqual({ reasoning: "", answer: reply, thinking: false });
  });

  it("leaves a message without a block as the answer", () => {
    expect(splitReasoning("Just an answer.")).toEqual({ reasoning: "", answer: "Just an answer.", thinking: false });
  });

  it("reads a block whose opening tag the server left out", () => {
    expect(splitReasoning("reasoning here</think>answer")).toEqual({ reasoning: "reasoning here", answer: "answer", thinking: false });
    expect(splitReasoning("Okay, the user asks.\n</think>\n\nHello!")).toEqual({ reasoning: "Okay, the user asks.", answer: "Hello!", thinking: false });
  });

  it("keeps the tags of an answer that shows them in a code sample", () => {
    const answer = "Use a regex:\n```python\nre.sub(r'<think>.*?</think>', '', text)\n```\nThat strips it.";
    expect(splitReasoning(answer)).toEqual({ reasoning: "", answer, thinking: false });
    const lone = "Split on the tag:\n```js\ntext.split('</think>')[1]\n```";
    expect(splitReasoning(lone)).toEqual({ reasoning: "", answer: lone, thinking: false });
    const unclosedFence = "Split on the tag:\n~~~\ntext.split('</think>')";
    expect(splitReasoning(unclosedFence).answer).toBe(unclosedFence);
    const inline = "The block ends with `</think>`, then the answer follows.";
    expect(splitReasoning(inline)).toEqual({ reasoning: "", answer: inline, thinking: false });
  });

  it("reads tags only at the start: an answer that mentions them later keeps them", () => {
    const mention = "Models wrap reasoning in <think> and </think>; the answer follows.";
    expect(splitReasoning(mention)).toEqual({ reasoning: "", answer: mention, thinking: false });
    const late = "First this. <think>not reasoning</think> and more";
    expect(splitReasoning(late)).toEqual({ reasoning: "", answer: late, thinking: false });
    // After a real block, the answer keeps any tags it shows.
    expect(splitReasoning("<think>plan</think>Strip `<think>…</think>` first.")).toEqual({
      reasoning: "plan",
      answer: "Strip `<think>…</think>` first.",
      thinking: false,
    });
  });

  it("shows reasoning sent apart the same way, thinking until the answer starts", () => {
    expect(splitReasoning("", "Planning")).toEqual({ reasoning: "Planning", answer: "", thinking: true });
    expect(splitReasoning("Done.", "Planning")).toEqual({ reasoning: "Planning", answer: "Done.", thinking: false });
  });

  it("reads no tags in the content when the reasoning came apart", () => {
    expect(splitReasoning("Strip it up to </think> first.", "Planning")).toEqual({
      reasoning: "Planning",
      answer: "Strip it up to </think> first.",
      thinking: false,
    });
    expect(splitReasoning("<think>is the tag</think> they use.", "Planning").answer).toBe("<think>is the tag</think> they use.");
  });
});

describe("firstOutsideCode", () => {
  it("skips fenced blocks and inline spans", () => {
    expect(firstOutsideCode("```\nX\n```\nX", "X")).toBe(10);
    expect(firstOutsideCode("``X`` and X", "X")).toBe(10);
    expect(firstOutsideCode("````\n```\nX\n````", "X")).toBe(-1);
    expect(firstOutsideCode("a ` b X", "X")).toBe(6);
  });
});
