import { describe, expect, it } from "vitest";
import { isFinishedReply, MODALITIES, mediaFor, multimodalChatHref, parseModalities, replyAnnouncement, toolCallsFor } from "./multimodal";

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

describe("announcing a reply", () => {
  const reply = { id: "r1", role: "assistant" as const, content: "Here you go.", timestamp: 0 };
  it("is finished once no tool call runs", () => {
    expect(isFinishedReply(reply)).toBe(true);
    expect(isFinishedReply({ ...reply, toolCalls: toolCallsFor(["image"], "r1") })).toBe(false);
    expect(isFinishedReply({ ...reply, toolCalls: toolCallsFor(["image"], "r1").map((c) => ({ ...c, status: "completed" as const })) })).toBe(true);
    expect(isFinishedReply({ ...reply, role: "user" })).toBe(false);
  });
  it("says its text, then how each tool call ended", () => {
    expect(replyAnnouncement(reply)).toBe("Reply finished: Here you go.");
    const calls = toolCallsFor(["image", "audio"], "r1").map((c) => ({ ...c, status: "completed" as const }));
    expect(replyAnnouncement({ ...reply, toolCalls: calls })).toBe("Reply finished: Here you go. generate_image completed, generate_audio completed.");
  });
});
