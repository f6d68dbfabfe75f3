import { describe, expect, it } from "vitest";
import { splitReasoning } from "./reasoning";

describe("splitReasoning", () => {
  it("separates a closed <think> block from the answer", () => {
    expect(splitReasoning("<think>Weigh the options.</think>\n\nThe answer is 42.")).toEqual({
      reasoning: "Weigh the options.",
      answer: "The answer is 42.",
      thinking: false,
    });
  });

  it("counts an unclosed block as thinking only, with no answer yet", () => {
    expect(splitReasoning("<think>Still weighing")).toEqual({ reasoning: "Still weighing", answer: "", thinking: true });
  });

  it("leaves a message without a block as the answer", () => {
    expect(splitReasoning("Just an answer.")).toEqual({ reasoning: "", answer: "Just an answer.", thinking: false });
  });

  it("reads a block whose opening tag the server left out", () => {
    expect(splitReasoning("reasoning here</think>answer")).toEqual({ reasoning: "reasoning here", answer: "answer", thinking: false });
  });

  it("shows reasoning sent apart the same way, thinking until the answer starts", () => {
    expect(splitReasoning("", "Planning")).toEqual({ reasoning: "Planning", answer: "", thinking: true });
    expect(splitReasoning("Done.", "Planning")).toEqual({ reasoning: "Planning", answer: "Done.", thinking: false });
  });
});
