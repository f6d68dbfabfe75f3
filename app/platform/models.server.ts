import type { PlatformClient } from "./client.server";
import { modelHistorySchema, modelListSchema, modelMetricsListSchema, statusMapSchema, systemModelMetricsSchema } from "./models";
import { modelPath } from "./system.server";

export async function listModels(api: PlatformClient, fallback = "Failed to load models") {
  const result = await api.call("GET", "/models", modelListSchema, fallback);
  return result.ok ? { ok: true as const, models: result.data.data } : { ok: false as const, error: fallback };
}

export const MODEL_STATUS_FAILED = "Failed to load model status";

/** The status map call as the platform answered it: the chat's poll passes a refusal (401/403) on. */
export function modelStatusAnswer(api: PlatformClient) {
  return api.call("GET", "/models/status", statusMapSchema, MODEL_STATUS_FAILED);
}

/** The status map, or null when the call failed (only logged, once: the client logs a call it could not make, SPEC §8). */
export async function modelStatuses(api: PlatformClient) {
  const result = await modelStatusAnswer(api);
  if (!result.ok && !result.logged) console.warn("Model status fetch failed:", result.status, result.error);
  return result.ok ? result.data : null;
}

/** The organization's reliability figures per model (issue 17), or null when the call failed: the table shows without them. */
export async function modelMetrics(api: PlatformClient) {
  const result = await api.call("GET", "/models/metrics", modelMetricsListSchema, "Failed to load model figures");
  if (!result.ok && !result.logged) console.warn("Model figures fetch failed:", result.status, result.error);
  return result.ok ? Object.fromEntries(result.data.data.map((m) => [m.name, m])) : null;
}

/** A model's last days: status bands and hourly figures. 404 when there is no such model. */
export function modelHistory(api: PlatformClient, name: string, days = 7) {
  return api.call("GET", `${modelPath(name)}/history?days=${days}`, modelHistorySchema, "Failed to load the model's history");
}

/** Every organization's figures and the current alerts (system organization only), or null when the call failed. */
export async function systemModelMetrics(api: PlatformClient) {
  const result = await api.call("GET", "/system/models/metrics", systemModelMetricsSchema, "Failed to load model figures");
  if (!result.ok && !result.logged) console.warn("System model figures fetch failed:", result.status, result.error);
  return result.ok ? result.data : null;
}
