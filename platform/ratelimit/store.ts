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
  // A window opened "later" than now (the clock stepped back, or another replica's runs ahead) is not
  // current: kept, it would last the step and its own length (an hour's step, an hour's lock-out).
  const current = sql<boolean>`rate_limit_buckets.window_start > ${since} and rate_limit_buckets.window_start <= ${now}`;
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

const failuresOf = (deps: Deps, key: string) =>
  deps.db.selectFrom("rate_limit_buckets").select(["count", "window_start", "expires_at"]).where("key", "=", key).executeTakeFirst();

/** Seconds `key` must still wait after failures read as `row`, or 0. A last failure "later" than now waits from now (see `hit`). */
function secondsToWait(row: { count: number; window_start: number; expires_at: number } | undefined, backoff: Backoff, now: number): number {
  if (!row || Number(row.expires_at) <= now) return 0;
  const until = Math.min(Number(row.window_start), now) + backoffWaitMs(Number(row.count), backoff);
  return until > now ? Math.ceil((until - now) / 1000) : 0;
}

/** Whether `key` must still wait after its failures; seconds to wait, or 0. */
export async function waitAfterFailures(deps: Deps, key: string, backoff: Backoff): Promise<number> {
  return secondsToWait(await failuresOf(deps, key), backoff, deps.now());
}

/**
 * Takes the one try a finished wait allows: 0 when this request may go on, else the seconds to wait.
 * Requests sent together once a wait is over each read that it is over; only the one that moves the
 * bucket's time first goes on, and the others wait again, as they would have one at a time (before, all
 * of them went on: as many guesses a wait as the per-minute limit let through).
 */
export async function claimTryAfterFailures(deps: Deps, key: string, backoff: Backoff): Promise<number> {
  const now = deps.now();
  const row = await failuresOf(deps, key);
  const waiting = secondsToWait(row, backoff, now);
  if (waiting > 0 || !row || Number(row.expires_at) <= now || backoffWaitMs(Number(row.count), backoff) === 0) return waiting;
  const claimed = await deps.db
    .updateTable("rate_limit_buckets")
    .set({ window_start: now })
    .where("key", "=", key)
    .where("window_start", "=", row.window_start)
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) > 0 ? 0 : Math.ceil(backoffWaitMs(Number(row.count), backoff) / 1000);
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
