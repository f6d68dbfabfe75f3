import type { PlatformClient } from "./client.server";
import { auditPageSchema } from "./audit";

export const AUDIT_LOAD_ERROR = "Failed to load the audit log";

/** The organization's log, or (`all`) every organization's for the system organization; `query` is the platform's query string. */
export const auditApi = (api: PlatformClient) => ({
  page: (scope: "organization" | "all", query: URLSearchParams) =>
    api.call("GET", `${scope === "all" ? "/system/audit" : "/audit"}?${query}`, auditPageSchema, AUDIT_LOAD_ERROR),
  /** The CSV, streamed as the platform sends it. */
  export: (scope: "organization" | "all", query: URLSearchParams, signal?: AbortSignal) =>
    api.send("GET", `${scope === "all" ? "/system/audit/export" : "/audit/export"}?${query}`, undefined, signal),
});
