import type { Deps } from "../context";
import { modelStatuses } from "./service";

/** How often the server probes every model for its status history when nobody is looking. */
export const STATUS_WATCH_MS = 60_000;

/**
 * Probes every model at start and then once a minute, so the status history (uptime, the bands on
 * /models/{name}) keeps advancing while no one has /models open: otherwise an outage at night would
 * only be seen, and counted, once someone polls. Probes reuse the 30 s cache the status route uses, so
 * a busy console adds no probe of its own. Stopped by the platform's close().
 */
export function startStatusWatcher(deps: Deps, intervalMs = STATUS_WATCH_MS): { close: () => void } {
  const watch = () =>
    void modelStatuses(deps).catch((error) => console.error("Probing model statuses failed:", error instanceof Error ? error.message : error));
  watch();
  const timer = setInterval(watch, intervalMs);
  timer.unref();
  return { close: () => clearInterval(timer) };
}
