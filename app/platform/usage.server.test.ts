import { afterEach, describe, expect, it, vi } from "vitest";
import { clientWith, loggedLines, unreachable } from "./platform-failures.testing";
import { getTokenSpend, getUsage } from "./usage.server";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("/usage's and /tokens' usage calls with the platform failing", () => {
  it("log a platform that did not answer once each: the client's line, not a second warning", async () => {
    const lines = loggedLines();
    const down = clientWith("req-2", unreachable);
    expect((await getUsage(down, 30)).ok).toBe(false);
    expect(await getTokenSpend(down)).toBeNull();
    expect(lines).toEqual([
      "Platform GET /api/v1/usage?days=30 (request req-2) failed: connect ECONNREFUSED 127.0.0.1:3001",
      "Platform GET /api/v1/usage/token-spend (request req-2) failed: connect ECONNREFUSED 127.0.0.1:3001",
    ]);
  });

  it("still warn once of the platform's own failed answer", async () => {
    const lines = loggedLines();
    const failing = clientWith("req-2", async () => Response.json({ error: "Internal error" }, { status: 500 }));
    expect(await getTokenSpend(failing)).toBeNull();
    expect(lines).toEqual(["Token spend fetch failed: 500 Internal error"]);
  });
});
