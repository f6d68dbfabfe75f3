import { sql } from "kysely";
import type { Deps } from "../context";
import type { DB } from "../db";
import type { ModelMinuteStatsTable } from "../db/schema";

/**
 * Upper bounds (ms) of the time-to-first-token histogram kept per row: log-spaced, the last one open.
 * A p50 read from summed buckets is exact to its bucket, which is all a dashboard needs, and the sums of
 * every process and minute add up (a percentile of percentiles would not).
 */
export const TTFT_BOUNDS = [25, 50, 100, 200, 350, 500, 750, 1000, 1500, 2500, 4000, 6000, 10000, Infinity] as const;
export const FLUSH_MS = 10_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** How long minute rows are kept: the longest history read is 30 days (GET /models/{name}/history), plus a day. */
export const RETENTION_MS = 31 * 24 * HOUR;

const COUNTERS = [
  "requests",
  "successes",
  "upstream_errors",
  "rate_limited",
  "unavailable",
  "aborted",
  "ttft_count",
  "ttft_sum_ms",
  "output_tokens",
  "generation_ms",
  "duration_ms",
] as const;
type Counter = (typeof COUNTERS)[number];
const BUCKETS = TTFT_BOUNDS.map((_, i) => `ttft_b${i}` as const);
type Bucket = (typeof BUCKETS)[number];
export const STAT_COLUMNS: readonly (Counter | Bucket)[] = [...COUNTERS, ...BUCKETS];

type Row = Record<Counter | Bucket, number>;
interface Pending {
  model: string;
  orgId: number;
  minute: number;
  row: Row;
}

/**
 * How a forwarded request ended. `refused`: the upstream refused the client's own request (400, 413,
 * 422): counted as a request the model answered, not as its error, nor a success.
 */
export type Outcome = "success" | "upstream_error" | "rate_limited" | "unavailable" | "aborted" | "refused";

/**
 * Upstream statuses that are the client's fault (a bad parameter, a prompt too long): the model did its
 * job. 401/403/404 are not among them: the operator's key or model id is wrong, so the model fails
 * every caller. 429 and 503 keep their own counters (capacity), which the error rate counts.
 */
const CLIENT_FAULTS = new Set([400, 413, 422]);

export function bucketOf(ms: number): number {
  return TTFT_BOUNDS.findIndex((bound) => ms <= bound);
}

/** Per process and database: counters not yet written, and the timer that writes them. */
class Recorder {
  pending = new Map<string, Pending>();
  /** The newest minute whose flush last pruned: rows past retention are deleted about once an hour. */
  private prunedAt = 0;
  private timer: ReturnType<typeof setInterval> | null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private db: DB) {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    // A process with nothing else to do may exit between flushes (tests, the CLI): close() writes the rest.
    this.timer.unref?.();
  }

  add(model: string, orgId: number, at: number, change: Partial<Row>): void {
    const minute = at - (at % MINUTE);
    const key = `${model}\n${orgId}\n${minute}`;
    let entry = this.pending.get(key);
    if (!entry) this.pending.set(key, (entry = { model, orgId, minute, row: Object.fromEntries(STAT_COLUMNS.map((c) => [c, 0])) as Row }));
    for (const [column, value] of Object.entries(change)) entry.row[column as Counter] += value as number;
  }

  /** Writes what was gathered: one additive upsert per model, organization and minute, whatever other processes wrote. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = [...this.pending.values()];
      this.pending = new Map();
      for (const [index, entry] of batch.entries()) {
        try {
          await this.db
            .insertInto("model_minute_stats")
            .values({
              model: entry.model,
              org_id: entry.orgId,
              minute: entry.minute,
              ...(entry.row as unknown as Omit<ModelMinuteStatsTable, "model" | "org_id" | "minute">),
            })
            .onConflict((oc) =>
              oc
                .columns(["model", "org_id", "minute"])
                .doUpdateSet(
                  Object.fromEntries(STAT_COLUMNS.map((c) => [c, sql<number>`${sql.ref(`model_minute_stats.${c}`)} + ${sql.ref(`excluded.${c}`)}`])),
                ),
            )
            .execute();
        } catch (error) {
          // Kept for the next flush (a locked SQLite file, a lost connection): counters are never dropped silently.
          console.error("Model metrics flush failed:", error instanceof Error ? error.message : error);
          for (const rest of batch.slice(index)) this.add(rest.model, rest.orgId, rest.minute, rest.row);
          return;
        }
      }
      await this.prune(Math.max(...batch.map((entry) => entry.minute)));
    });
    return this.flushing;
  }

  /**
   * Deletes rows older than the retention, counted back from the newest minute written (the clock of the
   * requests themselves): at most once an hour per process; several processes doing it at once is harmless.
   */
  private async prune(newest: number): Promise<void> {
    if (newest - this.prunedAt < HOUR) return;
    this.prunedAt = newest;
    try {
      await this.db
        .deleteFrom("model_minute_stats")
        .where("minute", "<", newest - RETENTION_MS)
        .execute();
    } catch (error) {
      console.error("Pruning old model metrics failed:", error instanceof Error ? error.message : error);
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }
}

const recorders = new WeakMap<DB, Recorder>();

function recorderOf(db: DB): Recorder {
  let recorder = recorders.get(db);
  if (!recorder) recorders.set(db, (recorder = new Recorder(db)));
  return recorder;
}

/** Writes this process's counters now (before reading figures, and in tests). */
export async function flushMetrics(db: DB): Promise<void> {
  await recorders.get(db)?.flush();
}

/** Stops the timer and writes what is left: part of the platform's close(). */
export async function stopMetrics(db: DB): Promise<void> {
  const recorder = recorders.get(db);
  recorders.delete(db);
  await recorder?.stop();
}

/** The timing of one forwarded request, from the moment it is sent upstream. Each method is cheap; only the first end counts. */
export interface RequestTiming {
  /** A chunk of the answer arrived (only the first one is timed). */
  firstToken(): void;
  /** The answer ended: how the chat service's metering names it, and the output tokens it counted. */
  end(outcome: "completed" | "stopped" | "failed", outputTokens: number): void;
  /**
   * No answer: the upstream's error status, "aborted" when the client went away, 502 when unreachable
   * or unreadable, 504 when silent past the limit. 400, 413 and 422 are the client's, not the model's.
   */
  fail(status: number | "aborted"): void;
}

const OUTCOME_COUNTERS: Record<Outcome, Counter | null> = {
  success: "successes",
  upstream_error: "upstream_errors",
  rate_limited: "rate_limited",
  unavailable: "unavailable",
  aborted: "aborted",
  refused: null,
};

export function beginRequest(deps: Deps, model: string, orgId: number): RequestTiming {
  const started = deps.now();
  let first: number | null = null;
  let ended = false;
  const record = (outcome: Outcome, change: Partial<Row> = {}) => {
    if (ended) return;
    ended = true;
    const now = deps.now();
    const counter = OUTCOME_COUNTERS[outcome];
    recorderOf(deps.db).add(model, orgId, now, { requests: 1, ...(counter ? { [counter]: 1 } : {}), duration_ms: now - started, ...change });
  };
  return {
    firstToken() {
      if (first === null) first = deps.now();
    },
    end(how, outputTokens) {
      const now = deps.now();
      const outcome: Outcome = how === "completed" ? "success" : how === "stopped" ? "aborted" : "upstream_error";
      // A whole (non-streamed) answer is its own first token.
      const firstAt = first ?? (how === "completed" ? now : null);
      if (firstAt === null) return record(outcome);
      const ttft = firstAt - started;
      record(outcome, {
        ttft_count: 1,
        ttft_sum_ms: ttft,
        [BUCKETS[bucketOf(ttft)]]: 1,
        // Tokens a second are output over the time it took to generate: only a stream measures that. A
        // whole answer's tokens came in no measured time, and counted alone they inflated the figure.
        ...(first === null ? {} : { output_tokens: outputTokens, generation_ms: now - firstAt }),
      });
    },
    fail(status) {
      record(
        status === "aborted"
          ? "aborted"
          : CLIENT_FAULTS.has(status)
            ? "refused"
            : status === 429
              ? "rate_limited"
              : status === 503
                ? "unavailable"
                : "upstream_error",
      );
    },
  };
}

/** A model's last minutes of real traffic, every organization's and every process's. */
export interface RecentTraffic {
  /** Requests that got an answer or a failure from the model's side (client aborts left out). */
  requests: number;
  /** Of those, the model's failures: unreachable, 5xx, unreadable, broken off, timed out. */
  failed: number;
  /** Of those, 503s (not available right now). */
  unavailable: number;
}

/**
 * Each model's traffic since `from`, from the minute rows (this process's counters written first): one
 * grouped read over the `(minute, model)` index. Read by the status map, at most once per cache period.
 */
export async function recentTraffic(deps: Deps, from: number): Promise<Map<string, RecentTraffic>> {
  await flushMetrics(deps.db);
  const rows = await deps.db
    .selectFrom("model_minute_stats")
    .select("model")
    .select([
      sql<number>`sum(requests) - sum(aborted)`.as("requests"),
      sql<number>`sum(upstream_errors)`.as("failed"),
      sql<number>`sum(unavailable)`.as("unavailable"),
    ])
    .where("minute", ">=", from - (from % MINUTE))
    .groupBy("model")
    .execute();
  return new Map(rows.map((r) => [r.model, { requests: Number(r.requests), failed: Number(r.failed), unavailable: Number(r.unavailable) }]));
}
