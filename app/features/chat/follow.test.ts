import { describe, expect, it } from "vitest";
import { followsAfterScroll } from "./follow";

/**
 * The chat's message list while a reply streams: each token grows it, and the page scrolls it to its end
 * while it follows; each scroll (the user's or the page's) is reported as the browser would.
 */
function streamingList() {
  const list = { scrollTop: 1500, scrollHeight: 2000, clientHeight: 500 };
  let following = true;
  let lastTop = list.scrollTop;
  const scrolled = () => {
    following = followsAfterScroll(following, lastTop, list);
    lastTop = list.scrollTop;
  };
  const scrollTo = (top: number) => {
    list.scrollTop = Math.max(0, Math.min(top, list.scrollHeight - list.clientHeight));
    scrolled();
  };
  return {
    list,
    following: () => following,
    gap: () => list.scrollHeight - list.scrollTop - list.clientHeight,
    userScrolls: (by: number) => scrollTo(list.scrollTop + by),
    token: (grows = 20) => {
      list.scrollHeight += grows;
      if (following) scrollTo(list.scrollHeight);
    },
    shrinks: (by: number) => {
      list.scrollHeight -= by;
      if (list.scrollTop > list.scrollHeight - list.clientHeight) scrollTo(list.scrollHeight);
    },
  };
}

describe("following a streaming reply", () => {
  it("stops at the first small step up: a trackpad's 60 steps of 8 px, a token between each, leave the list where the user took it", () => {
    const chat = streamingList();
    for (let step = 0; step < 60; step++) {
      chat.userScrolls(-8);
      chat.token();
    }
    expect(chat.following()).toBe(false);
    expect(chat.list.scrollTop).toBe(1500 - 60 * 8);
  });

  it("follows again once the user scrolls back down to the bottom, and not before", () => {
    const chat = streamingList();
    chat.userScrolls(-200);
    chat.token();
    chat.userScrolls(100);
    expect(chat.following()).toBe(false);
    chat.userScrolls(chat.gap() - 10);
    expect(chat.following()).toBe(true);
    chat.token();
    expect(chat.gap()).toBe(0);
  });

  it("keeps following when the list gets shorter under it (the browser's clamp is no scroll up)", () => {
    const chat = streamingList();
    chat.shrinks(30);
    chat.token();
    expect(chat.following()).toBe(true);
    expect(chat.gap()).toBe(0);
  });

  it("is not stopped by its own scroll to the end reported after more of the reply came", () => {
    expect(followsAfterScroll(true, 1500, { scrollTop: 1520, scrollHeight: 2400, clientHeight: 500 })).toBe(true);
  });
});
