import { describe, expect, it } from "vitest";
import { appendTranscript } from "./speech";

describe("appendTranscript", () => {
  it("fills an empty or blank prompt with what was heard", () => {
    expect(appendTranscript("", "Paint a lighthouse")).toBe("Paint a lighthouse");
    expect(appendTranscript("  \n", "Paint a lighthouse")).toBe("Paint a lighthouse");
  });

  it("adds what was heard after the typed text, one space between", () => {
    expect(appendTranscript("A fox", "in the snow")).toBe("A fox in the snow");
    expect(appendTranscript("A fox \n", "in the snow")).toBe("A fox in the snow");
    expect(appendTranscript("  A fox", "in the snow")).toBe("  A fox in the snow");
  });
});
