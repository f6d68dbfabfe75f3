import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { request, type Dispatcher } from "undici";

const BODILESS_STATUSES = new Set([204, 205, 304]);

/**
 * `fetch` for the `PLATFORM_URL` proxy, over undici's `request`: it sends the request's own `Host`,
 * where Node's `fetch` always writes the target's, so the platform answers for the console's name (its
 * host allow-list, OAuth callback URLs and cookie flags are the console's, decision 0083). It follows
 * no redirect: a redirect is the browser's to follow. It asks for no compression, and decodes none.
 */
export async function forwardFetch(forwarded: Request): Promise<Response> {
  const headers: Record<string, string> = {};
  forwarded.headers.forEach((value, name) => (headers[name] = value));
  const reply = await request(forwarded.url, {
    method: forwarded.method as Dispatcher.HttpMethod,
    headers,
    body: forwarded.body ? Readable.fromWeb(forwarded.body as NodeReadableStream) : null,
    signal: forwarded.signal,
  });
  const answer = new Headers();
  for (const [name, value] of Object.entries(reply.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) answer.append(name, one);
  }
  const bodiless = forwarded.method === "HEAD" || BODILESS_STATUSES.has(reply.statusCode);
  if (bodiless) await reply.body.dump();
  return new Response(bodiless ? null : (Readable.toWeb(reply.body) as ReadableStream<Uint8Array>), { status: reply.statusCode, headers: answer });
}
