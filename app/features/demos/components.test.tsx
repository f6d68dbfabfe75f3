import type { KeyboardEvent } from "react";
import { describe, expect, it, vi } from "vitest";
import { submitOnEnter } from "./components";

/** A keydown in a demo prompt box holding `value`, as React hands it to the handler. */
function keydown(init: { key: string; shiftKey?: boolean; isComposing?: boolean; keyCode?: number }, value = "a red fox") {
  const preventDefault = vi.fn();
  const event = {
    key: init.key,
    shiftKey: init.shiftKey ?? false,
    nativeEvent: { isComposing: init.isComposing ?? false, keyCode: init.keyCode ?? 13 },
    currentTarget: { value },
    preventDefault,
  } as unknown as KeyboardEvent<HTMLTextAreaElement>;
  return { event, preventDefault };
}

describe("submitOnEnter (every demo prompt box)", () => {
  it("sends on a plain Enter", () => {
    const send = vi.fn();
    const { event, preventDefault } = keydown({ key: "Enter" });
    submitOnEnter(send)(event);
    expect(send).toHaveBeenCalledOnce();
    expect(preventDefault).toHaveBeenCalled();
  });

  it("does not send on Shift+Enter, which adds a newline", () => {
    const send = vi.fn();
    const { event, preventDefault } = keydown({ key: "Enter", shiftKey: true });
    submitOnEnter(send)(event);
    expect(send).not.toHaveBeenCalled();
    expect(preventDefault).not.toHaveBeenCalled();
  });

  it("does not send on the Enter that confirms an IME composition (isComposing)", () => {
    const send = vi.fn();
    const { event, preventDefault } = keydown({ key: "Enter", isComposing: true, keyCode: 229 });
    submitOnEnter(send)(event);
    expect(send).not.toHaveBeenCalled();
    expect(preventDefault).not.toHaveBeenCalled();
  });

  it("does not send on Safari's confirming Enter: isComposing false, keyCode 229", () => {
    const send = vi.fn();
    const { event, preventDefault } = keydown({ key: "Enter", isComposing: false, keyCode: 229 });
    submitOnEnter(send)(event);
    expect(send).not.toHaveBeenCalled();
    expect(preventDefault).not.toHaveBeenCalled();
  });

  it("does not send a blank prompt", () => {
    const send = vi.fn();
    submitOnEnter(send)(keydown({ key: "Enter" }, "  \n ").event);
    expect(send).not.toHaveBeenCalled();
  });
});
