import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { MUTATING_METHODS } from "../http/origin";
import type { ResolvedCaller } from "./service";

/**
 * What the console's server hands the platform with each in-process call (server/index.ts): one map
 * per browser request, in which the platform keeps its own resolutions of session cookies. A page's
 * loaders make up to eight calls with the same cookie (/billing); the session is then looked up once
 * for all of them instead of once each (issue 15, decision 0087, tenth pass).
 *
 * Nothing in it comes from the console but the map: each answer was resolved here, for the same
 * cookie, during the same browser request. Only reads share it. A write (an action's switch, leave,
 * role change) empties it when it is done, so the loaders that follow it in the same browser request
 * look the session up again, as `loadSessionOnce` does on the console's side.
 */
export interface InProcessBindings {
  sessions: Map<string, Promise<ResolvedCaller | null>>;
}

export function newInProcessBindings(): InProcessBindings {
  return { sessions: new Map() };
}

function sharedSessions(c: Context): InProcessBindings["sessions"] | undefined {
  const sessions = (c.env as Partial<InProcessBindings> | undefined)?.sessions;
  return sessions instanceof Map ? sessions : undefined;
}

/** The caller behind `id`, resolved once per browser request for the reads of in-process calls. */
export function resolvedOnce(c: Context, id: string | undefined, resolve: () => Promise<ResolvedCaller | null>): Promise<ResolvedCaller | null> {
  const sessions = sharedSessions(c);
  if (!sessions || !id || MUTATING_METHODS.has(c.req.method)) return resolve();
  let resolution = sessions.get(id);
  if (!resolution) {
    resolution = resolve();
    keep(sessions, id, resolution);
  }
  return resolution;
}

/** Shares a resolution made by a read (the session call, which the layout makes first) with the calls after it. */
export function shareResolution(c: Context, id: string | undefined, resolution: Promise<ResolvedCaller | null>): void {
  const sessions = sharedSessions(c);
  if (sessions && id && !MUTATING_METHODS.has(c.req.method)) keep(sessions, id, resolution);
}

function keep(sessions: InProcessBindings["sessions"], id: string, resolution: Promise<ResolvedCaller | null>) {
  sessions.set(id, resolution);
  // A failed lookup is not kept: the next call tries again, as it would have.
  resolution.catch(() => sessions.get(id) === resolution && sessions.delete(id));
}

/**
 * Empties the browser request's shared resolutions once a write is done, with what reads made while it
 * ran (the write itself never uses them).
 */
export const forgetSessionsOnWrite = createMiddleware(async (c, next) => {
  try {
    await next();
  } finally {
    if (MUTATING_METHODS.has(c.req.method)) sharedSessions(c)?.clear();
  }
});
