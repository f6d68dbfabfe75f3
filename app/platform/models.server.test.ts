import type { AppLoadContext } from "@remix-run/node";
import { format } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { platformClient } from "./client.server";
import { modelMetrics, modelStatuses } from "./models.server";

afterEach(() => {
  vi.restoreAllMocks();
});

function loggedLines() {
  const lines: string[] = [];
  const keep = (...args: unknown[]) => void lines.push(format(...args));
  vi.spyOn(console, "error").mockImplementation(keep);
  vi.spyOn(console, "warn").mockImplementation(keep);
  return lines;
}

const api = (platformFetch: () => Promise<Response>) =>
  platformClient(new Request("http://console.test/models", { headers: { "x-request-id": "req-1" } }), { platformFetch } as unknown as AppLoadContext);

describe("the models pages' status and figures with the platform failing", () => {
  it("log a platform that did not answer once each: the client's line, not a second warning", async () => {
    const lines = loggedLines();
    const down = api(() => Promise.reject(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:3001"), { code: "ECONNREFUSED" })));
    expect(await modelStatuses(down)).toBeNull();
    expect(await modelMetrics(down)).toBeNull();
    expect(lines).toEqual([
      "Platform GET /api/v1/models/status (request req-1) failed: connect ECONNREFUSED 127.0.0.1:3001",
      "Platform GET /api/v1/models/metrics (request req-1) failed: connect ECONNREFUSED 127.0.0.1:3001",
    ]);
  });

  it("still warn once of the platform's own failed answer, which the client does not log", async () => {
    const lines = loggedLines();
    const failing = api(async () => Response.json({ error: "Internal error" }, { status: 500 }));
    expect(await modelStatuses(failing)).toBeNull();
    expect(lines).toEqual(["Model status fetch failed: 500 Internal error"]);
  });
});
