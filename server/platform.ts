import { Hono } from "hono";
import { proxy } from "hono/proxy";
import { createPlatform } from "../platform/app";
import { flushPendingMeterings } from "../platform/chat/service";
import { openMigrated } from "../platform/db";
import { clientAddress } from "../platform/ratelimit/address";
import { startPaymentReconciler } from "../platform/billing/payment-intents";
import { applyModelsFile } from "../platform/models/service";
import { startReservationSweeper } from "../platform/spend/reservations";
import { stopMetrics } from "../platform/models/metrics";
import { startStatusWatcher } from "../platform/models/status-watcher";
import { startUsageRoller } from "../platform/usage/rollup";
import type { Env } from "./env";
import { forwardFetch } from "./forward-fetch";
import { databaseReady, platformReady } from "./readiness";
import type { ReadinessCheck } from "./readiness";

export interface MountedPlatform {
  /** Answers /api/v1 (and /openai/v1) requests, in-process or by forwarding. */
  fetch: (request: Request, env?: unknown) => Promise<Response>;
  /** Why this process can't serve now (its database, or PLATFORM_URL, does not answer), or null: `/readyz`. */
  ready: ReadinessCheck;
  /** Stops the platform's periodic work (payment reconciliation, usage roll-ups…) and closes its database: for graceful shutdown, after the last request. */
  close: () => Promise<void>;
}

/** The embedded platform over its own database, or a proxy to PLATFORM_URL (DESIGN §1). */
export async function startPlatform(env: Env): Promise<MountedPlatform> {
  if (env.PLATFORM_URL) {
    const base = env.PLATFORM_URL.replace(/\/$/, "");
    const forward = new Hono().all("*", (c) => {
      const url = new URL(c.req.url);
      // The platform believes this process about the client's address, so it gets the address as
      // this process resolved it (TRUST_PROXY), never the header the browser wrote (decision 0095).
      // And the console's own host name, which the browser asked for: the platform answers for that name.
      const headers = { ...c.req.header(), host: url.host, "x-forwarded-for": clientAddress(c) };
      return proxy(`${base}${url.pathname}${url.search}`, { ...c.req, headers, customFetch: forwardFetch });
    });
    return { fetch: async (request, bindings) => forward.fetch(request, bindings), ready: platformReady(base), close: async () => {} };
  }
  const db = await openMigrated({ url: env.DATABASE_URL, path: env.DATABASE_PATH, checkpointInBackground: true });
  if (env.MODELS_FILE) {
    try {
      const { entries, applied } = await applyModelsFile(db, env.MODELS_FILE);
      // Say what the file changed: an unchanged entry leaves the model editor's work alone.
      console.log(
        `MODELS_FILE: ${applied.length} of ${entries} entries applied${applied.length > 0 ? ` (${applied.join(", ")})` : ""}; the others are unchanged since last applied`,
      );
    } catch (error) {
      await db.destroy();
      throw error;
    }
  }
  const deps = { db, config: env.platform, now: Date.now };
  const app = createPlatform(deps);
  // Charges a crash left between the provider and the ledger are finished at start and every minute.
  // Releases the spend reservations a dead process left (decision 0084).
  const sweeper = startReservationSweeper(deps);
  const reconciler = startPaymentReconciler(deps);
  // Model statuses are probed in the background too, so uptime counts hours nobody was looking.
  const watcher = startStatusWatcher(deps);
  // Usage is rolled up in the background too, so no view pays for a long backlog (decision 0092).
  const roller = startUsageRoller(deps);
  return {
    fetch: async (request, bindings) => app.fetch(request, bindings),
    ready: databaseReady(db),
    close: async () => {
      sweeper.close();
      watcher.close();
      await reconciler.stop();
      await roller.stop();
      await stopMetrics(db);
      await flushPendingMeterings(deps);
      await db.destroy();
    },
  };
}
