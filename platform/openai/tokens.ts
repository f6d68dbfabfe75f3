/**
 * API-token authentication from the tokens module (issue 3). Until that branch is merged, this narrow
 * adapter keeps exactly its signature and refuses every token, so the public API is closed, not open.
 */
import type { Deps } from "../context";

export async function authenticateApiToken(
  _deps: Deps,
  authorizationHeader: string | undefined,
  _requiredScope: string,
): Promise<{ ok: true; orgId: number; tokenId: number; scopes: string[] } | { ok: false; status: 401 | 403; error: string }> {
  return { ok: false, status: 401, error: authorizationHeader ? "Invalid API token" : "Missing bearer token" };
}
