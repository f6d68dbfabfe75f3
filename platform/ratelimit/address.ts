import type { Context } from "hono";
import type { IncomingMessage } from "node:http";
import ipaddr from "ipaddr.js";

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

export function isLoopbackAddress(address: string): boolean {
  return LOOPBACK.test(address);
}

/**
 * The browser's address, for per-address limits. Through the server, it is Express's `req.ip` (which
 * trusts one loopback proxy's `X-Forwarded-For`) or the socket's peer. An in-process call (the
 * console's own server, which has no socket to the platform) carries the browser's address in
 * `X-Forwarded-For`, and only such a call is believed (decision 0083). Undefined when nobody says.
 */
export function clientAddress(c: Context): string | undefined {
  let incoming: (IncomingMessage & { ip?: string }) | undefined;
  try {
    const bindings = (c.env as { server?: unknown; incoming?: unknown } | undefined) ?? {};
    incoming = ((bindings.server ?? bindings) as { incoming?: IncomingMessage & { ip?: string } }).incoming;
  } catch {
    incoming = undefined;
  }
  if (incoming) {
    const peer = incoming.ip ?? incoming.socket?.remoteAddress;
    // A bare node server (no Express) behind a loopback proxy: the proxy's first hop says who it is.
    if (incoming.ip === undefined && peer && LOOPBACK.test(peer)) return forwardedFor(c) ?? peer;
    return peer;
  }
  return forwardedFor(c);
}

function forwardedFor(c: Context): string | undefined {
  const header = c.req.header("x-forwarded-for");
  if (!header) return undefined;
  const first = header.split(",")[0]?.trim();
  return first || undefined;
}

/**
 * What a per-address limit counts: an IPv4 address (also written IPv4-mapped, `::ffff:a.b.c.d`) as
 * itself, an IPv6 address by its /64. A home or a server is given a whole /64 and may use any of
 * its 2^64 addresses, so counted one by one a client could take a new address for every request.
 */
export function limitedAddress(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const network = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...network, 0, 0, 0, 0]).toString()}/64`;
}
