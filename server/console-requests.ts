import type { IncomingMessage } from "node:http";
import type { RequestHandler } from "express";

/** The methods the console's pages and resource routes answer: its forms post, everything else reads. */
export const CONSOLE_METHODS = "GET, HEAD, POST";
const ANSWERED = new Set(CONSOLE_METHODS.split(", "));

/**
 * What reaches Remix (decision 0142). Each rule stops a request any client can send from running a
 * loader or an action it was not made for, or from logging a stack:
 * - OPTIONS is answered here (`Allow`): Remix ran a resource route's loader for it, so it streamed a
 *   whole CSV export.
 * - Another method is refused with 405 and `Allow`: TRACE made building the `Request` throw (a 500 and a
 *   stack), and PUT or DELETE ran a page's action like a POST.
 * - `_data` is the address of Remix's data requests before single fetch, which this console uses: Remix
 *   still ran the route for it, action included (a token made whose secret nobody saw), answered an
 *   empty 200, and logged its warning as an error with a stack.
 */
export function consoleRequests(): RequestHandler {
  return (req, res, next) => {
    if (req.method === "OPTIONS") {
      res.setHeader("Allow", CONSOLE_METHODS);
      res.status(204).end();
      return;
    }
    if (!ANSWERED.has(req.method)) {
      res.setHeader("Allow", CONSOLE_METHODS);
      res.status(405).type("text/plain").send("Method not allowed");
      return;
    }
    // Read as Remix reads it: Express's parsed query stops at 1,000 parameters, and one more let it through.
    const query = req.originalUrl.includes("?") ? req.originalUrl.slice(req.originalUrl.indexOf("?") + 1) : "";
    if (new URLSearchParams(query).has("_data")) {
      res.status(400).type("text/plain").send("Bad request: this console does not answer _data requests.");
      return;
    }
    next();
  };
}

/**
 * A request target in absolute form (`GET http://host/team`), which HTTP/1.1 servers must accept (RFC
 * 9112 §3.2.2), made the origin form Express and Remix expect: its authority stands for the Host header,
 * which the host allow-list then checks as any other. Remix built `http://hosthttp://host/team` from it
 * and failed with a 500 and a stack. Called before Express sees the request: its router reads the
 * scheme and host off an absolute URL once, and trims them from every mounted path (/assets) after.
 */
export function toOriginForm(req: IncomingMessage): void {
  const url = req.url ?? "/";
  if (url.startsWith("/") || url === "*") return;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return;
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") return;
  req.headers.host = target.host;
  req.url = `${target.pathname}${target.search}`;
}
