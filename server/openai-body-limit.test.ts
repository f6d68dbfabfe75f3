import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "./testing/raw-request";
import { spawnServer } from "./testing/spawned-server";
import type { SpawnedServer } from "./testing/spawned-server";

/**
 * A body over the limit sent to /openai/v1 through the server as it runs (the console's own limit lets
 * the platform's prefixes through): the 413 is the public API's, so a browser app on another origin
 * can read it and OpenAI's SDKs do not send the same body again.
 */
const PORT = Number(process.env.OPENAI_BODY_LIMIT_TEST_PORT ?? 4004);
let server: SpawnedServer;

beforeAll(async () => {
  server = await spawnServer(PORT);
}, 90_000);

afterAll(() => server?.stop());

/** A POST of `bytes` from a browser page on another origin, declared or chunked; resolves with the answer once it comes. */
function post(path: string, bytes: number, chunked: boolean) {
  return rawRequest(PORT, { method: "POST", path, headers: { "content-type": "application/json", origin: "https://app.example" }, bytes, chunked });
}

describe("a body over the limit under /openai/v1, through the server", () => {
  for (const chunked of [false, true]) {
    it(`answers 413 in the OpenAI shape, readable cross-origin and marked final (${chunked ? "chunked" : "declared length"})`, async () => {
      for (const [path, limit] of [
        ["/openai/v1/chat/completions", "8 MB"],
        ["/openai/v1/models", "64 KB"],
      ] as const) {
        const answer = await post(path, limit === "8 MB" ? 9 * 1024 * 1024 : 100 * 1024, chunked);
        expect(answer.status, path).toBe(413);
        expect(answer.headers["access-control-allow-origin"], path).toBe("*");
        expect(String(answer.headers["access-control-expose-headers"]).split(/,\s*/), path).toContain("x-should-retry");
        expect(answer.headers["x-should-retry"], path).toBe("false");
        expect(answer.headers["x-request-id"], path).toBeTruthy();
        expect(JSON.parse(answer.body), path).toEqual({
          error: { message: `Request body too large: at most ${limit} here.`, type: "invalid_request_error", param: null, code: "request_too_large" },
        });
      }
    });
  }
});
