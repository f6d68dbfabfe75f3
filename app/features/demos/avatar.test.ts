import { describe, expect, it } from "vitest";
import { AVATAR_HINT_INTERVAL_MS, AVATAR_NUDGE_AFTER_MS, AVATAR_NUDGE_SHOWN_MS, avatarReply, avatarState } from "./avatar";

describe("the avatar state rule", () => {
  it("is listening whenever voice input is on", () => {
    expect(avatarState({ listening: true, pending: true, speaking: true })).toBe("listening");
    expect(avatarState({ listening: true, pending: false, speaking: false })).toBe("listening");
  });
  it("is thinking while a reply is pending, when not listening", () => {
    expect(avatarState({ listening: false, pending: true, speaking: true })).toBe("thinking");
  });
  it("is speaking while audio plays, when neither listening nor thinking", () => {
    expect(avatarState({ listening: false, pending: false, speaking: true })).toBe("speaking");
  });
  it("is idle otherwise", () => {
    expect(avatarState({ listening: false, pending: false, speaking: false })).toBe("idle");
  });
});

describe("the avatar's timings and replies", () => {
  it("rotates hints every 15 s and nudges after 20 s for 5 s", () => {
    expect([AVATAR_HINT_INTERVAL_MS, AVATAR_NUDGE_AFTER_MS, AVATAR_NUDGE_SHOWN_MS]).toEqual([15_000, 20_000, 5_000]);
  });
  it("generates an image when asked for one, and at random otherwise", () => {
    expect(avatarReply("Please draw a cat", 0, 0.99).image).toBe(true);
    expect(avatarReply("Hello", 0, 0.1).image).toBe(true);
    expect(avatarReply("Hello", 0, 0.9).image).toBe(false);
  });
});
