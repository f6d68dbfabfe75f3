import { MODEL_STATUSES } from "@contract/models";
import type { ModelStatus, StatusMap } from "@contract/models";

/** Model statuses of SPEC §3 (the contract's list), each with its tooltip; a model missing from the map is unknown. */
export { MODEL_STATUSES };
export type { ModelStatus, StatusMap };

export const STATUS_TOOLTIPS: Record<ModelStatus, string> = {
  online: "Model is online and accepting requests",
  starting: "Model is starting up and will accept requests shortly",
  standby: "Model is on standby and will start on the first request",
  maintenance: "Model is under maintenance and not accepting requests",
  offline: "Model is offline and not accepting requests",
  unknown: "Model status is unknown",
};

/** The word shown beside each status dot: colour is never the only cue (WCAG 1.4.1). */
export const STATUS_LABELS: Record<ModelStatus, string> = {
  online: "Online",
  starting: "Starting",
  standby: "Standby",
  maintenance: "Maintenance",
  offline: "Offline",
  unknown: "Unknown",
};

/**
 * The dot's shape and colour: starting and maintenance share amber, so maintenance is a square (and
 * starting pulses, where motion is welcome).
 */
export const STATUS_DOT_CLASS: Record<ModelStatus, string> = {
  online: "rounded-full bg-success",
  starting: "rounded-full bg-warning motion-safe:animate-pulse",
  standby: "rounded-full bg-info",
  maintenance: "rounded-[2px] bg-warning",
  offline: "rounded-full bg-error",
  unknown: "rounded-full bg-base-content/30",
};

/** SPEC §9: model status is polled every 30 seconds. */
export const STATUS_POLL_MS = 30_000;
/** SPEC §9: the models table shows 5 skeleton rows while loading. */
export const SKELETON_ROWS = 5;

export function statusOf(map: StatusMap | null | undefined, name: string): ModelStatus {
  const status = map?.[name];
  return status && (MODEL_STATUSES as readonly string[]).includes(status) ? status : "unknown";
}

/** Context sizes with thousands separators (131072 → "131,072"). */
export function formatContextSize(size: number): string {
  return new Intl.NumberFormat("en-US").format(size);
}
