import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";
import { format } from "node:util";
import { PLAIN_REQUEST_ID } from "@contract/request-id";

/**
 * Every request gets an id, the proxy's `X-Request-Id` when it sent a plain one: it is answered in
 * `X-Request-Id` (the public API answers its receipt's id there instead), written at the end of the
 * access log's line, and named by the log line of an error the request met. The console's calls to the
 * platform pass it on.
 */
export function requestIds(): RequestHandler {
  return (req, res, next) => {
    const sent = req.headers["x-request-id"];
    const id = typeof sent === "string" && PLAIN_REQUEST_ID.test(sent) ? sent : randomUUID();
    if (id !== sent) {
      req.headers["x-request-id"] = id;
      // The platform's Request is built from the raw headers (@hono/node-server), not from `headers`:
      // without this, its error lines named no request for the calls made to it directly.
      const raw = req.rawHeaders;
      for (let i = raw.length - 2; i >= 0; i -= 2) if (raw[i].toLowerCase() === "x-request-id") raw.splice(i, 2);
      raw.push("X-Request-Id", id);
    }
    res.setHeader("X-Request-Id", id);
    next();
  };
}

/**
 * In production, each `console.error` and `console.warn` is one line: a log collector (Docker's, journald)
 * takes each line for an entry, and an error's stack then came as a dozen unrelated entries.
 */
export function oneLineLogs(target: Pick<Console, "error" | "warn"> = console) {
  for (const level of ["error", "warn"] as const) {
    const write = target[level].bind(target);
    target[level] = (...args: unknown[]) => write(format(...args).replace(/\s*\n\s*/g, " ⏎ "));
  }
}
