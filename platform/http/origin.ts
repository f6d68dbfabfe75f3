/**
 * The one rule for cross-origin mutations, used by the platform and by the console's server:
 * a browser request that says where it comes from must come from the console's own origin.
 */
export function isAllowedOrigin(
  headers: { origin?: string | null; secFetchSite?: string | null },
  requestUrl: string,
  allowed?: string | readonly string[],
): boolean {
  if (headers.secFetchSite === "cross-site") return false;
  const origin = headers.origin;
  if (!origin) return true; // not a browser, or a browser too old to say: there is no ambient cookie to forge with.
  // The console's configured origins (platform/http/hosts.ts); the request's own only when none is configured.
  const origins = allowed === undefined ? [new URL(requestUrl).origin] : typeof allowed === "string" ? [allowed] : allowed;
  return origins.some((o) => origin === new URL(o).origin);
}

export const MUTATING_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
