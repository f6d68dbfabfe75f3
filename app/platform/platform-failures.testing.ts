import type { AppLoadContext } from "@remix-run/node";
import { format } from "node:util";
import { vi } from "vitest";
import { platformClient } from "./client.server";

/** For tests of what the console logs of a failing platform: every console.error and .warn line, as written. */
export function loggedLines(): string[] {
  const lines: string[] = [];
  const keep = (...args: unknown[]) => void lines.push(format(...args));
  vi.spyOn(console, "error").mockImplementation(keep);
  vi.spyOn(console, "warn").mockImplementation(keep);
  return lines;
}

/** A platform client for a page request carrying `X-Request-Id: requestId`, whose calls `platformFetch` answers. */
export const clientWith = (requestId: string, platformFetch: () => Promise<Response>) =>
  platformClient(new Request("http://console.test/", { headers: { "x-request-id": requestId } }), { platformFetch } as unknown as AppLoadContext);

/** A platform that cannot be reached, as a refused connection fails. */
export const unreachable = () => Promise.reject(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:3001"), { code: "ECONNREFUSED" }));
