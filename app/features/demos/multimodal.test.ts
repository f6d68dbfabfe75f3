import { describe, expect, it } from "vitest";
import { MODALITIES, mediaFor, multimodalChatHref, parseModalities, toolCallsFor } from "./multimodal";

describe("carrying a multimodal prompt", () => {
  it("puts the prompt and all four modalities in the chat URL", () => {
    const url = new URL(multimodalChatHref("  A fox in the snow "), "http://x");
    expect(url.pathname).toBe("/multimodal-chat");
    expect(url.searchParams.get("prompt")).toBe("A fox in the snow");
    expect(parseModalities(url.searchParams.get("modalities"))).toEqual([...MODALITIES]);
  });
  it("reads known modalities only, in order, and all four when absent", () => {
    expect(parseModalities("audio,bogus,text")).toEqual(["text", "audio"]);
    expect(parseModalities(null)).toEqual(["text", "image", "video", "audio"]);
    expect(parseModalities("")).toEqual([]);
  });
  it("calls generate_{modality} for each non-text modality, running first, with a placeholder result each", () => {
    const calls = toolCallsFor(["text", "image", "audio"], "r1");
    expect(calls.map((c) => [c.name, c.status])).toEqual([
      ["generate_image", "running"],
      ["generate_audio", "running"],
    ]);
    expect(mediaFor(calls, "fox").map((m) => m.type)).toEqual(["image", "audio"]);
    expect(mediaFor(calls, "fox")[0].url).toMatch(/^data:image\/svg\+xml,/);
  });
});
