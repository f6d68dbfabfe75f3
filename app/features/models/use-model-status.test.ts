import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { unmount } from "~/lib/effects-at-once.testing";
import { useModelStatus } from "./use-model-status";

vi.mock("react", async (original) => (await import("~/lib/effects-at-once.testing")).effectsAtOnce(await original<object>()));

describe("the model status poll (SPEC §4, §9: every 30 seconds)", () => {
  const fetch = vi.fn(async (_url: string) => Response.json({ builtin: "online" }));

  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal("fetch", fetch);
  });
  afterEach(() => {
    unmount();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    fetch.mockClear();
  });

  it("asks again at 30 s, not before, and every 30 s after", async () => {
    useModelStatus({ builtin: "online" });
    await vi.advanceTimersByTimeAsync(29_999);
    expect(fetch).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch.mock.calls.map(([url]) => url)).toEqual(["/resources/chat?status=1"]);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("keeps polling after a failed poll, which is only logged (SPEC §8)", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    fetch.mockImplementationOnce(async () => new Response("down", { status: 502 }));
    useModelStatus(null);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });

  it("stops polling once the page is left", async () => {
    useModelStatus(null);
    unmount();
    await vi.advanceTimersByTimeAsync(90_000);
    expect(fetch).not.toHaveBeenCalled();
  });
});
