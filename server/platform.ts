import { setMaxListeners } from "node:events";
import { createPlatform } from "../platform/app";
import { flushPendingMeterings } from "../platform/chat/service";
import { openMigrated } from "../platform/db";
import { byDeadline, DeadlinePassed } from "../platform/db/deadline";
import { lockDatabaseFile } from "../platform/db/process-lock";
import type { ProcessLock } from "../platform/db/process-lock";
import { rechargesFinished } from "../platform/billing/charges";
import { startPaymentReconciler } from "../platform/billing/payment-intents";
import { applyModelsFile } from "../platform/models/service";
import { openUpstreamKeys } from "../platform/models/upstream-keys";
import { startReservationSweeper } from "../platform/chat/expired-holds";
import { stopMetrics } from "../platform/models/metrics";
import { startStatusWatcher } from "../platform/models/status-watcher";
import { startUsageRoller } from "../platform/usage/rollup";
import type { PlatformConfig } from "../platform/config";
import type { DB } from "../platform/db";
import type { Env } from "./env";
import { platformProxy } from "./platform-proxy";
import { databaseReady, platformReady } from "./readiness";
import type { ReadinessCheck } from "./readiness";

export interface MountedPlatform {
  /** Answers /api/v1 (and /openai/v1) requests, in-process or by forwarding. */
  fetch: (request: Request, env?: unknown) => Promise<Response>;
  /** Why this process can't serve now (its database, or PLATFORM_URL, does not answer), or null: `/readyz`. */
  ready: ReadinessCheck;
  /**
   * At a shutdown's deadline: requests still waiting for an upstream's JSON answer give up and answer
   * 503 `server_shutting_down`, their holds released (streams are ended by the stream tracker).
   */
  stopRequests: () => void;
  /**
   * Stops the platform's periodic work (payment reconciliation, usage roll-ups…) and closes its database:
   * for graceful shutdown, after the last request. With `deadline` (epoch ms), resolves by then whatever
   * the database does: what it could not write is named in the log.
   */
  close: (deadline?: number) => Promise<void>;
}

/** The embedded platform over its own database, or a proxy to PLATFORM_URL (DESIGN §1). */
export async function startPlatform(env: Env): Promise<MountedPlatform> {
  if (env.PLATFORM_URL) {
    const base = env.PLATFORM_URL.replace(/\/$/, "");
    const proxy = platformProxy(base);
    return {
      fetch: proxy,
      ready: platformReady(base, env.platform.appOrigin ?? `http://localhost:${env.PORT}`),
      stopRequests: proxy.stopRequests,
      close: async () => {},
    };
  }
  // A SQLite file serves one process: a second is refused, and the one that runs owns every hold in it.
  const lock = env.DATABASE_URL || env.DATABASE_PATH === ":memory:" ? undefined : lockDatabaseFile(env.DATABASE_PATH);
  let db: DB;
  try {
    db = await openMigrated({ url: env.DATABASE_URL, path: env.DATABASE_PATH, checkpointInBackground: true });
  } catch (error) {
    lock?.release();
    throw error;
  }
  try {
    // Before MODELS_FILE, whose keys are then stored sealed too.
    const keys = { secret: env.UPSTREAM_KEYS_SECRET, previous: env.UPSTREAM_KEYS_SECRET_PREVIOUS };
    const { sealed, underPrevious } = await openUpstreamKeys(db, keys);
    if (sealed.length > 0) console.log(`UPSTREAM_KEYS_SECRET: sealed the upstream API keys of ${sealed.join(", ")}`);
    // A rotation's next step, said where the operator looks after restarting every process.
    if (underPrevious.length > 0) {
      console.log(
        `UPSTREAM_KEYS_SECRET_PREVIOUS still opens the upstream API keys of ${underPrevious.join(", ")}: once every process runs with these settings, run reseal-upstream-keys${keys.secret ? "" : " --unseal"}`,
      );
    } else if (keys.previous) {
      console.log("UPSTREAM_KEYS_SECRET_PREVIOUS opens none of the stored upstream API keys: it can be taken out of every process's settings");
    }
    if (env.MODELS_FILE) {
      const { entries, applied } = await applyModelsFile(db, env.MODELS_FILE);
      // Say what the file changed: an unchanged entry leaves the model editor's work alone.
      console.log(
        `MODELS_FILE: ${applied.length} of ${entries} entries applied${applied.length > 0 ? ` (${applied.join(", ")})` : ""}; the others are unchanged since last applied`,
      );
    }
  } catch (error) {
    await db.destroy();
    lock?.release();
    throw error;
  }
  return mountEmbedded(db, env.platform, lock);
}

/**
 * The embedded platform over an open, migrated database, and its background work: `close` ends both and
 * closes the database. With `lock`, this is the database's only process: holds left when it started
 * are a dead process's, finished at once rather than at expiry (decision 0105); `close` releases it.
 */
export function mountEmbedded(db: DB, config: PlatformConfig, lock?: ProcessLock): MountedPlatform {
  const stopping = new AbortController();
  // Every JSON chat request listens to it while it waits: as many listeners as requests in flight.
  setMaxListeners(0, stopping.signal);
  const deps = { db, config, now: Date.now, stopping: stopping.signal };
  const app = createPlatform(deps);
  // Charges a crash left between the provider and the ledger are finished at start and every minute.
  // Releases the spend reservations a dead process left (decision 0084).
  const sweeper = startReservationSweeper(deps, { orphansBefore: lock ? deps.now() : undefined });
  const reconciler = startPaymentReconciler(deps);
  // Model statuses are probed in the background too, so uptime counts hours nobody was looking.
  const watcher = startStatusWatcher(deps);
  // Usage is rolled up in the background too, so no view pays for a long backlog (decision 0092).
  const roller = startUsageRoller(deps);
  // Requests being answered: the database stays open until they have released or settled what they
  // hold, however their connection ended (decision 0102).
  const answering = new Set<Promise<unknown>>();
  return {
    fetch: (request, bindings) => {
      const answer = Promise.resolve(app.fetch(request, bindings));
      answering.add(answer);
      const done = () => void answering.delete(answer);
      answer.then(done, done);
      return answer;
    },
    ready: databaseReady(db),
    stopRequests: () => stopping.abort("The server is shutting down"),
    close: async (deadline = Infinity) => {
      stopping.abort("The server is shutting down");
      // A database that stopped answering (a hung host) must not hold the stop past its deadline: the
      // writes get until shortly before it, the closing of the connections the rest.
      const writesBy = deadline - DESTROY_MS;
      // Neither starts another round; the rounds in progress finish before the database closes.
      const rounds = Promise.all([sweeper.close(), watcher.close(), reconciler.stop(), roller.stop()]);
      // And the recharges they started: a charge the provider makes after this is credited by
      // reconciliation at the next start.
      const settled = Promise.allSettled([...answering, rechargesFinished(deps)]);
      const answersMs = Math.max(0, Math.min(ANSWERS_WAIT_MS, writesBy - Date.now()));
      await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, answersMs).unref())]);
      // Each on its own connection: a charge waiting for the database is not kept waiting behind a metric.
      await Promise.all([
        byDeadline(rounds, writesBy).catch(late("Background work (sweeps, reconciliation, roll-ups) not finished")),
        byDeadline(stopMetrics(db), writesBy).catch(late("Model metrics not written")),
        flushPendingMeterings(deps, writesBy),
      ]);
      // Closing waits for the connections still busy: those of a write given up above wait for the pool's
      // hold, and are ended by the process's exit instead.
      await byDeadline(db.destroy(), deadline).catch(late("Database connections not closed"));
      lock?.release();
    },
  };
}

/** A step of a stop given up at its deadline: one line, then the stop goes on (a failure still fails it). */
const late = (what: string) => (error: unknown) => {
  if (!(error instanceof DeadlinePassed)) throw error;
  console.error(`${what}: ${error.message}`);
};

/** How long a stop waits for requests still being answered (and their recharges) to finish their writes. */
const ANSWERS_WAIT_MS = 5_000;
/** What a stop keeps, of its time, to close the database's connections. */
const DESTROY_MS = 1_000;
