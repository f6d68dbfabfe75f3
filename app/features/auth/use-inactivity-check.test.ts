import { describe, expect, it } from "vitest";
import { INACTIVITY_TIMEOUT_MS, sessionStillValid } from "./use-inactivity-check";

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
