import { MODEL_STATUSES } from "@contract/models";
import type { ModelStatus } from "@contract/models";

/** Model statuses of SPEC §3 (the contract's list), each with its tooltip; a model missing from the map is unknown. */
export { MODEL_STATUSES };
export type { ModelStatus };
export type StatusMap = Record<string, ModelStatus>;

export const STATUS_TOOLTIPS: Record<ModelStatus, string> = {
  online: "Model is online and accepting requests",
  starting: "Model is starting up and will accept requests shortly",
  standby: "Model is on standby and will start on the first request",
  maintenance: "Model is under maintenance and not accepting requests",
  offline: "Model is offline and not accepting requests",
  unknown: "Model status is unknown",
};

export const STATUS_DOT_CLASS: Record<ModelStatus, string> = {
  online: "bg-success",
  starting: "bg-warning animate-pulse",
  standby: "bg-info",
  maintenance: "bg-warning",
  offline: "bg-error",
  unknown: "bg-base-content/30",
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
