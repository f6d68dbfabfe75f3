import type { Deps } from "../context";
import { runPeriodically } from "../periodic";
import { modelStatuses } from "./service";

/** How often the server probes every model for its status history when nobody is looking. */
export const STATUS_WATCH_MS = 60_000;

/**
 * Probes every model at start and then once a minute, so the status history (uptime, the bands on
 * /models/{name}) keeps advancing while no one has /models open: otherwise an outage at night would
 * only be seen, and counted, once someone polls. Probes reuse the 30 s cache the status route uses, so
 * a busy console adds no probe of its own. Stopped by the platform's close().
 */
export function startStatusWatcher(deps: Deps, intervalMs = STATUS_WATCH_MS): { close: () => Promise<void> } {
  // One round at a time (a slow upstream does not stack rounds up), and close() waits for the round
  // in progress, whose history rows would otherwise be written to a database being closed.
  const watcher = runPeriodically("Probing model statuses", () => modelStatuses(deps), intervalMs, { atStart: true });
  return { close: watcher.stop };
}
