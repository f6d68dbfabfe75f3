import { afterEach, describe, expect, it, vi } from "vitest";
import { clientWith, loggedLines, unreachable } from "./platform-failures.testing";
import { modelMetrics, modelStatuses } from "./models.server";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the models pages' status and figures with the platform failing", () => {
  it("log a platform that did not answer once each: the client's line, not a second warning", async () => {
    const lines = loggedLines();
    const down = clientWith("req-1", unreachable);
    expect(await modelStatuses(down)).toBeNull();
    expect(await modelMetrics(down)).toBeNull();
    expect(lines).toEqual([
      "Platform GET /api/v1/models/status (request req-1) failed: connect ECONNREFUSED 127.0.0.1:3001",
      "Platform GET /api/v1/models/metrics (request req-1) failed: connect ECONNREFUSED 127.0.0.1:3001",
    ]);
  });

  it("still warn once of the platform's own failed answer, which the client does not log", async () => {
    const lines = loggedLines();
    const failing = clientWith("req-1", async () => Response.json({ error: "Internal error" }, { status: 500 }));
    expect(await modelStatuses(failing)).toBeNull();
    expect(lines).toEqual(["Model status fetch failed: 500 Internal error"]);
  });
});
