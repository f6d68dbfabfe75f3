import express from "express";
import type { Router } from "express";
import { accessLog } from "./access-log";
import { bodyLimit, consoleBodyLimit } from "./body-limit";
import { hostAllowList } from "./host";
import { readiness } from "./readiness";
import { requestIds } from "./request-id";
import type { ReadinessCheck } from "./readiness";

export interface FrontDoorOptions {
  /** True once a shutdown has begun (server/shutdown.ts). */
  draining: () => boolean;
  ready: ReadinessCheck;
  /** The console's origins and the public API's (server/host.ts). */
  origins: readonly string[];
  apiOrigins: readonly string[];
  logRequests: boolean;
  production: boolean;
  /** Where the access log goes: stdout unless a test says otherwise. */
  logStream?: NodeJS.WritableStream;
}

/**
 * What every request meets first, in this order: the drain's `Connection: close`, the health checks
 * (any host name, not logged: a checker every few seconds would drown the log), the request's id, the access log, then
 * the refusals (421 for another host name, 413 for a body too large), which are logged like any answer.
 */
export function frontDoor(options: FrontDoorOptions): Router {
  const router = express.Router();
  router.use((_req, res, next) => {
    // While draining, a kept-alive connection carries no further request.
    if (options.draining()) res.setHeader("Connection", "close");
    next();
  });
  // Liveness: the process answers (a restart would help only if it did not). Readiness: its database,
  // or PLATFORM_URL, answers too, and it is not draining (decision 0099).
  router.get("/healthz", (_req, res) => {
    res.json({ ok: true });
  });
  router.get("/readyz", readiness({ check: options.ready, draining: options.draining }));
  router.use(requestIds());
  if (options.logRequests) router.use(accessLog(options.production, options.logStream));
  router.use(hostAllowList(options.origins, options.apiOrigins));
  router.use(bodyLimit(consoleBodyLimit));
  return router;
}
