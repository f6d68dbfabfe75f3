import type { PlatformClient } from "./client.server";
import { modelListSchema, statusMapSchema } from "./models";

export async function listModels(api: PlatformClient, fallback = "Failed to load models") {
  const result = await api.call("GET", "/models", modelListSchema, fallback);
  return result.ok ? { ok: true as const, models: result.data.data } : { ok: false as const, error: fallback };
}

/** The status map, or null when the call failed (only logged, SPEC §8). */
export async function modelStatuses(api: PlatformClient) {
  const result = await api.call("GET", "/models/status", statusMapSchema, "Failed to load model status");
  if (!result.ok) console.warn("Model status fetch failed:", result.status, result.error);
  return result.ok ? result.data : null;
}
