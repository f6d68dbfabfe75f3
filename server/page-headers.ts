import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import helmet from "helmet";
import type { HelmetOptions } from "helmet";

/** Stands for the request's nonce while helmet builds the headers once; no nonce (a UUID) can contain it. */
const NONCE = "{{nonce}}";

/**
 * Helmet's headers, worked out once at start instead of by helmet's chain of middleware on every page
 * (decision 0087): helmet itself writes them into a recording response, with a placeholder where a
 * directive asks for `res.locals.cspNonce`; each request then gets the same headers, the placeholder
 * replaced by its own nonce. `directives` functions must depend on the nonce alone.
 */
export function pageHeaders(options: HelmetOptions): RequestHandler {
  const recorded = new Map<string, string>();
  const recorder = {
    locals: { cspNonce: NONCE },
    setHeader: (name: string, value: string | number | readonly string[]) => void recorded.set(name, String(value)),
    removeHeader: (name: string) => void recorded.delete(name),
    getHeader: () => undefined,
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  // In helmet's order; a value with the placeholder is kept as its parts around it.
  const headers = [...recorded].map(([name, value]) => ({ name, parts: value.split(NONCE) }));
  return (_req, res, next) => {
    // 122 random bits, from the entropy Node draws ahead for UUIDs rather than a system call each
    // (randomBytes was a hundredth of a page's time); hex and dashes are valid nonce characters.
    const nonce = randomUUID();
    res.locals.cspNonce = nonce;
    for (const { name, parts } of headers) res.setHeader(name, parts.length === 1 ? parts[0] : parts.join(nonce));
    next();
  };
}
