import type { RequestHandler } from "express";
import { sql } from "kysely";
import type { DB } from "../platform/db";
import { request } from "undici";

/** Why this process should get no traffic now, or null when it can serve. */
export type ReadinessCheck = () => Promise<string | null>;

/** A trivial query: the database answers, with this process's connection settings. */
export function databaseReady(db: DB): ReadinessCheck {
  return async () => {
    try {
      await sql`select 1`.execute(db);
      return null;
    } catch {
      // Anyone may ask /readyz: the reason names no host, port or driver message (the log has them).
      return "database: not answering";
    }
  };
}

/**
 * An external platform (PLATFORM_URL) answers a cheap call of the contract with a 2xx, asked as the
 * console's own calls ask: under the console's host name. A refusal counts too: a platform that
 * answers 421 to the console's name refuses every sign-in and page.
 */
export function platformReady(base: string, appOrigin: string, timeoutMs = 2_000): ReadinessCheck {
  const host = new URL(appOrigin).host;
  return async () => {
    try {
      const reply = await request(`${base}/api/v1/auth/providers`, { headers: { host }, signal: AbortSignal.timeout(timeoutMs) });
      await reply.body.dump();
      return reply.statusCode >= 200 && reply.statusCode < 300 ? null : `platform: answered ${reply.statusCode}`;
    } catch {
      return "platform: not answering";
    }
  };
}

/**
 * `/readyz`: 200 when the checks pass, else 503 with a short reason. Unlike `/healthz` (liveness: the
 * process answers), a database outage or a drain makes it fail, so a proxy or orchestrator can stop
 * sending requests here without restarting a process that will recover by itself.
 */
export function readiness(options: { check: ReadinessCheck; draining: () => boolean; timeoutMs?: number }): RequestHandler {
  const timeoutMs = options.timeoutMs ?? 2_000;
  return (_req, res) => {
    if (options.draining()) {
      res.status(503).json({ ok: false, reason: "shutting down" });
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs);
    });
    void Promise.race([options.check(), timedOut]).then((reason) => {
      clearTimeout(timer);
      res.setHeader("Cache-Control", "no-store");
      if (reason) res.status(503).json({ ok: false, reason });
      else res.json({ ok: true });
    });
  };
}
