import { sql } from "kysely";
import type { Deps } from "../context";

/** At most `limit` hits in a window of `windowMs` that opens at the first hit. */
export interface Rule {
  limit: number;
  windowMs: number;
}

/** `resetSeconds`: until the window closes (rounded up); the wait of a refused hit. */
export type Verdict = { ok: true; count: number; resetSeconds: number } | { ok: false; count: number; retryAfterSeconds: number; resetSeconds: number };

let hitsSincePurge = 0;
const PURGE_EVERY = 500;

/**
 * Counts one hit against `key` in the database, so every process sharing it enforces one limit
 * (DESIGN §5). One atomic upsert, on SQLite and PostgreSQL alike: a bucket whose window has passed
 * starts over at 1, otherwise its count grows; the answer is the count after this hit.
 */
export async function hit(deps: Deps, key: string, rule: Rule): Promise<Verdict> {
  const now = deps.now();
  const since = now - rule.windowMs;
  const current = sql<boolean>`rate_limit_buckets.window_start > ${since}`;
  const row = await deps.db
    .insertInto("rate_limit_buckets")
    .values({ key, window_start: now, count: 1, expires_at: now + rule.windowMs })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        count: sql<number>`case when ${current} then rate_limit_buckets.count + 1 else 1 end`,
        window_start: sql<number>`case when ${current} then rate_limit_buckets.window_start else excluded.window_start end`,
        expires_at: sql<number>`case when ${current} then rate_limit_buckets.expires_at else excluded.expires_at end`,
      }),
    )
    .returning(["count", "window_start"])
    .executeTakeFirstOrThrow();
  if (++hitsSincePurge >= PURGE_EVERY) {
    hitsSincePurge = 0;
    await purgeExpired(deps);
  }
  const count = Number(row.count);
  const resetSeconds = Math.max(1, Math.ceil((Number(row.window_start) + rule.windowMs - now) / 1000));
  if (count <= rule.limit) return { ok: true, count, resetSeconds };
  return { ok: false, count, retryAfterSeconds: resetSeconds, resetSeconds };
}

/** Forgets buckets whose window (or penalty) is over; run now and then, by any process. */
export async function purgeExpired(deps: Deps): Promise<void> {
  await deps.db.deleteFrom("rate_limit_buckets").where("expires_at", "<=", deps.now()).execute();
}

/**
 * Failures that make the wait grow: after `step` failures the wait is `baseMs`, and each `step` more
 * double it, up to `maxMs`. The bucket's `count` is the number of failures and its `window_start`
 * the time of the last one; a success does not forget them: they expire with the bucket (`recordFailure`).
 */
export interface Backoff {
  step: number;
  baseMs: number;
  maxMs: number;
}

export function backoffWaitMs(failures: number, backoff: Backoff): number {
  if (failures < backoff.step) return 0;
  const doublings = Math.floor(failures / backoff.step) - 1;
  return Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(doublings, 30));
}

/** Whether `key` must still wait after its failures; seconds to wait, or 0. */
export async function waitAfterFailures(deps: Deps, key: string, backoff: Backoff): Promise<number> {
  const row = await deps.db.selectFrom("rate_limit_buckets").select(["count", "window_start"]).where("key", "=", key).executeTakeFirst();
  if (!row) return 0;
  const until = Number(row.window_start) + backoffWaitMs(Number(row.count), backoff);
  const now = deps.now();
  return until > now ? Math.ceil((until - now) / 1000) : 0;
}

/**
 * Records one more failure for `key` (atomically, like `hit`). Failures older than their keep are
 * forgotten here, not only when a purge has deleted the bucket (which may be long after, on a quiet
 * install): the count starts over at 1.
 */
export async function recordFailure(deps: Deps, key: string, backoff: Backoff): Promise<void> {
  const now = deps.now();
  // Failures are remembered a day, or as long as the longest wait, whichever is longer.
  const keep = Math.max(24 * 3600 * 1000, backoff.maxMs);
  await deps.db
    .insertInto("rate_limit_buckets")
    .values({ key, window_start: now, count: 1, expires_at: now + keep })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        count: sql<number>`case when rate_limit_buckets.expires_at > ${now} then rate_limit_buckets.count + 1 else 1 end`,
        window_start: sql<number>`excluded.window_start`,
        expires_at: sql<number>`excluded.expires_at`,
      }),
    )
    .execute();
}
