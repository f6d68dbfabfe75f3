import { Readable } from "node:stream";
import { ReadableStream as NodeReadableStream } from "node:stream/web";
import { Agent, request, type Dispatcher } from "undici";

const BODILESS_STATUSES = new Set([204, 205, 304]);

/**
 * How long the platform may take to answer (its headers), by call. A platform that stalls must not hold
 * every page and call for undici's 5 minutes: reads answer at once, writes may wait on the card's
 * provider, and a chat completion on its model, whose own wait the platform bounds at 5 minutes. A
 * body's pauses keep undici's bound (5 minutes): a stream's keep-alive comments come every 15 s.
 */
export interface ForwardTimeouts {
  readMs: number;
  writeMs: number;
  completionMs: number;
}

export const FORWARD_TIMEOUTS: ForwardTimeouts = { readMs: 30_000, writeMs: 100_000, completionMs: 330_000 };

const platformAgent = new Agent({ connect: { timeout: 5_000 } });

function headersTimeout(method: string, url: string, timeouts: ForwardTimeouts): number {
  if (new URL(url).pathname.endsWith("/chat/completions")) return timeouts.completionMs;
  return method === "GET" || method === "HEAD" ? timeouts.readMs : timeouts.writeMs;
}

/** Whether the platform was reached too slowly, or answered too slowly: 504 rather than 502. */
export function isTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "UND_ERR_CONNECT_TIMEOUT" || code === "UND_ERR_HEADERS_TIMEOUT";
}

/**
 * `fetch` for the `PLATFORM_URL` proxy, over undici's `request`: it sends the request's own `Host`,
 * where Node's `fetch` always writes the target's, so the platform answers for the console's name (its
 * host allow-list, OAuth callback URLs and cookie flags are the console's, decision 0083). It follows
 * no redirect: a redirect is the browser's to follow. It asks for no compression, and decodes none.
 */
export async function forwardFetch(forwarded: Request, timeouts: ForwardTimeouts = FORWARD_TIMEOUTS, stop?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = {};
  forwarded.headers.forEach((value, name) => (headers[name] = value));
  const reply = await request(forwarded.url, {
    method: forwarded.method as Dispatcher.HttpMethod,
    headers,
    body: forwarded.body ? Readable.fromWeb(forwarded.body as NodeReadableStream) : null,
    // `stop` gives up waiting for the answer (a shutdown's deadline); once it has begun, the client's own signal alone.
    signal: stop ? AbortSignal.any([forwarded.signal, stop]) : forwarded.signal,
    dispatcher: platformAgent,
    headersTimeout: headersTimeout(forwarded.method, forwarded.url, timeouts),
  });
  const answer = new Headers();
  for (const [name, value] of Object.entries(reply.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) answer.append(name, one);
  }
  const bodiless = forwarded.method === "HEAD" || BODILESS_STATUSES.has(reply.statusCode);
  if (bodiless) await reply.body.dump();
  // Not Readable.toWeb: a body cancelled while undici still delivers (a client gone mid-stream, a probe)
  // made Node's adapter throw an uncaught "Controller is already closed".
  const body = bodiless ? null : (NodeReadableStream.from(reply.body) as ReadableStream<Uint8Array>);
  return new Response(body, { status: reply.statusCode, headers: answer });
}
