import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { unmount } from "~/lib/effects-at-once.testing";
import { INACTIVITY_TIMEOUT_MS, sessionStillValid, useInactivityCheck } from "./use-inactivity-check";

vi.mock("react", async (original) => (await import("~/lib/effects-at-once.testing")).effectsAtOnce(await original<object>()));

describe("the inactivity re-check (SPEC §4, DESIGN §6)", () => {
  it("waits 300000 ms", () => {
    expect(INACTIVITY_TIMEOUT_MS).toBe(300000);
  });

  it("fails on a non-ok answer or valid:false, passes on valid:true", async () => {
    expect(await sessionStillValid(new Response("oops", { status: 500 }))).toBe(false);
    expect(await sessionStillValid(Response.json({ valid: false }))).toBe(false);
    expect(await sessionStillValid(new Response("not json"))).toBe(false);
    expect(await sessionStillValid(Response.json({ valid: true, user: {} }))).toBe(true);
  });
});

describe("the inactivity re-check in a page (SPEC §4, §9: 300000 ms)", () => {
  let session: Response;
  const fetch = vi.fn(async (_url: string) => session);
  const assign = vi.fn();

  beforeEach(() => {
    vi.useFakeTimers();
    session = Response.json({ valid: true });
    vi.stubGlobal("fetch", fetch);
    vi.stubGlobal("window", Object.assign(new EventTarget(), { location: { pathname: "/team", search: "?q=ada", assign } }));
    vi.stubGlobal("document", { forms: [] });
  });
  afterEach(() => {
    unmount();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    fetch.mockClear();
    assign.mockClear();
  });

  const checks = () => fetch.mock.calls.map(([url]) => url);

  it("checks the session once 5 minutes pass without activity, not before", async () => {
    useInactivityCheck(7);
    await vi.advanceTimersByTimeAsync(299_999);
    expect(checks()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(checks()).toEqual(["/api/v1/auth/session"]);
    expect(assign).not.toHaveBeenCalled();
  });

  it.each(["keydown", "mousemove", "click", "scroll"])("starts the 5 minutes again on activity (%s at 200 s checks at 500 s)", async (activity) => {
    useInactivityCheck(7);
    await vi.advanceTimersByTimeAsync(200_000);
    window.dispatchEvent(new Event(activity));
    await vi.advanceTimersByTimeAsync(299_999);
    expect(checks()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(checks()).toEqual(["/api/v1/auth/session"]);
  });

  it("goes to /login, remembering the page, when the check answers non-ok", async () => {
    session = new Response("oops", { status: 500 });
    useInactivityCheck(7);
    await vi.advanceTimersByTimeAsync(300_000);
    expect(assign).toHaveBeenCalledWith("/login?redirectTo=%2Fteam%3Fq%3Dada");
  });

  it("checks no more once the page is left", async () => {
    useInactivityCheck(7);
    unmount();
    window.dispatchEvent(new Event("keydown"));
    await vi.advanceTimersByTimeAsync(600_000);
    expect(checks()).toEqual([]);
  });
});
