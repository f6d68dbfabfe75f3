import { USAGE_LOAD_ERROR } from "~/features/usage/format";
import type { UsagePeriod } from "~/features/usage/format";
import type { PlatformClient } from "./client.server";
import { usageReportSchema } from "./usage";

export async function getUsage(api: PlatformClient, days: UsagePeriod) {
  const result = await api.call("GET", `/usage?days=${days}`, usageReportSchema, USAGE_LOAD_ERROR);
  if (!result.ok) console.warn("Usage fetch failed:", result.status, result.error);
  return result.ok ? { ok: true as const, report: result.data } : { ok: false as const, error: USAGE_LOAD_ERROR };
}
