import type { IncomingMessage } from "node:http";
import { Hono } from "hono";
import { proxy } from "hono/proxy";
import { clientAddress } from "../platform/ratelimit/address";
import { redactUrl } from "@contract/redact";
import type { ForwardTimeouts } from "./forward-fetch";
import { FORWARD_TIMEOUTS, forwardFetch, isTimeout } from "./forward-fetch";

/**
 * Headers that describe this one connection, not the request (RFC 9110 §7.6.1), and `Expect`, which
 * this process answers itself: the platform's client refuses to send them (a 500 for curl's `Expect:
 * 100-continue` on a body over 1 MiB, or `Connection: …, TE`).
 */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "http2-settings",
  "expect",
]);

/**
 * What a client may write about who it is and how it came (its address, scheme, host): only this
 * process says that to the platform, as it resolved it under TRUST_PROXY (decision 0130), since a
 * platform behind PLATFORM_URL may believe its one peer's word.
 */
const CLIENT_CLAIMS = new Set([
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-proto",
  "x-forwarded-host",
  "x-forwarded-port",
  "x-forwarded-prefix",
  "x-real-ip",
  "x-client-ip",
  "true-client-ip",
  "cf-connecting-ip",
]);

/**
 * The request's headers as the platform gets them: without this connection's own, those `Connection`
 * names, and the client's claims about itself.
 */
export function forwardedHeaders(headers: Record<string, string>): Record<string, string> {
  const named = new Set((headers.connection ?? "").split(",").map((name) => name.trim().toLowerCase()));
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name) && !CLIENT_CLAIMS.has(name) && !named.has(name)));
}

/** What Express resolved about the browser's request (its `protocol` follows TRUST_PROXY). */
type ResolvedIncoming = IncomingMessage & { protocol?: unknown };

const UNREACHABLE = "The platform did not answer. Please try again.";

/**
 * What a client of this server reads when the platform at PLATFORM_URL can't be reached or does not
 * answer in time: 502 or 504 in the contract's shape (OpenAI's under /openai/v1), not a bare 500.
 */
function unreachable(path: string, timedOut: boolean): Response {
  const status = timedOut ? 504 : 502;
  if (path.startsWith("/openai/")) {
    const error = { message: UNREACHABLE, type: "server_error", param: null, code: timedOut ? "platform_timeout" : "platform_unreachable" };
    return Response.json({ error }, { status, headers: { "access-control-allow-origin": "*" } });
  }
  return Response.json({ error: UNREACHABLE }, { status });
}

/**
 * The console in front of an external platform (PLATFORM_URL, DESIGN §1): every /api/v1 and /openai/v1
 * request, and the console's own platform calls, are forwarded there.
 */
const SHUTTING_DOWN = "The server is shutting down: the request was stopped. Try again.";

/** A request given up at the shutdown's deadline: 503 with Retry-After, as the embedded platform answers it. */
function shuttingDown(path: string): Response {
  const headers = { "retry-after": "1", ...(path.startsWith("/openai/") ? { "access-control-allow-origin": "*" } : {}) };
  if (path.startsWith("/openai/") || path.endsWith("/chat/completions")) {
    return Response.json({ error: { message: SHUTTING_DOWN, type: "server_error", param: null, code: "server_shutting_down" } }, { status: 503, headers });
  }
  return Response.json({ error: SHUTTING_DOWN }, { status: 503, headers });
}

export type PlatformProxy = ((request: Request, bindings?: unknown) => Promise<Response>) & {
  /** At a shutdown's deadline: requests still waiting for the platform's answer give up with 503 (streams are the tracker's). */
  stopRequests: () => void;
};

export function platformProxy(base: string, timeouts: ForwardTimeouts = FORWARD_TIMEOUTS): PlatformProxy {
  // Requests whose answer has not begun: a shutdown's deadline stops these, not a stream already flowing.
  const waiting = new Set<AbortController>();
  const forward = new Hono().all("*", async (c) => {
    const url = new URL(c.req.url);
    const incoming = (c.env as { incoming?: ResolvedIncoming } | undefined)?.incoming;
    // The platform believes this process about the client's address, so it gets the address as
    // this process resolved it (TRUST_PROXY), never the header the browser wrote (decision 0095).
    // And the console's own host name, which the browser asked for: the platform answers for that name.
    const headers: Record<string, string | undefined> = { ...forwardedHeaders(c.req.header()), host: url.host, "x-forwarded-for": clientAddress(c) };
    // The scheme the browser used, as this process resolved it: a platform that makes absolute links.
    if (incoming?.protocol === "http" || incoming?.protocol === "https") headers["x-forwarded-proto"] = incoming.protocol;
    // The id this process logs the request under (server/request-id.ts), so both logs name it alike.
    const requestId = incoming?.headers?.["x-request-id"];
    if (typeof requestId === "string") headers["x-request-id"] = requestId;
    const stop = new AbortController();
    waiting.add(stop);
    try {
      return await proxy(`${base}${url.pathname}${url.search}`, {
        ...c.req,
        headers,
        customFetch: (forwarded) => forwardFetch(forwarded, timeouts, stop.signal),
      });
    } catch (error) {
      if (stop.signal.aborted && incoming) return shuttingDown(url.pathname);
      // The console's own calls get the error: their callers' fallbacks say what failed (SPEC's texts).
      if (!incoming) throw error;
      // The client left first (a Stop, an SDK's timeout): nobody reads an answer, and the platform is not at fault.
      if (c.req.raw.signal.aborted) return new Response(null, { status: 499 });
      console.error(
        `Platform at PLATFORM_URL did not answer ${c.req.method} ${redactUrl(url.pathname)} (request ${requestId ?? "-"}): ${error instanceof Error ? error.message : String(error)}`,
      );
      return unreachable(url.pathname, isTimeout(error));
    } finally {
      waiting.delete(stop);
    }
  });
  // Hono would answer a bare 500; the console's own calls get the failure itself (above).
  forward.onError((error) => {
    throw error;
  });
  return Object.assign(async (request: Request, bindings?: unknown) => forward.fetch(request, bindings), {
    stopRequests: () => {
      for (const stop of waiting) stop.abort("The server is shutting down");
    },
  });
}
