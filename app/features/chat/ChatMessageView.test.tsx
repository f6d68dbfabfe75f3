import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ChatMessageView } from "./ChatMessageView";
import type { ChatMessage } from "./messages";

const reply = (patch: Partial<ChatMessage> = {}): ChatMessage => ({
  id: "a1",
  role: "assistant",
  content: "The first half of the answer",
  reasoning: "",
  timestamp: 0,
  status: "done",
  ...patch,
});
const render = (message: ChatMessage) =>
  renderToStaticMarkup(<ChatMessageView message={message} timeZone="UTC" busy={false} onDelete={() => {}} onRegenerate={() => {}} />);

describe("a reply", () => {
  it("cut at its length limit says so under it", () => {
    expect(render(reply({ cutAtLimit: true }))).toContain("The reply stopped at its length limit.");
    expect(render(reply())).not.toContain("length limit");
  });
});

describe("a finished reply that is just the start of a tag", () => {
  it("shows what was sent, not an empty bubble", () => {
    expect(render(reply({ content: "<" }))).toMatch(/<div data-answer="true"><p[^>]*>&lt;<\/p><\/div>/);
    expect(render(reply({ content: "<thi", status: "streaming" }))).not.toContain("data-answer");
  });
});
