import type { PlatformClient } from "./client.server";
import { createdTokenSchema, scopeListSchema, tokenListSchema, tokenSchema } from "./tokens";

/** The tokens calls of SPEC §7, with the default error texts of SPEC §8. */
export const tokensApi = (api: PlatformClient) => ({
  list: () => api.call("GET", "/tokens", tokenListSchema, "Failed to load tokens"),
  scopes: () => api.call("GET", "/tokens/scopes", scopeListSchema, "Failed to load tokens"),
  create: (scopes: string[], expiresAt: number | null) => api.call("POST", "/tokens", createdTokenSchema, "Failed to create token", { scopes, expiresAt }),
  revoke: (publicId: string) => api.call("DELETE", `/tokens/${encodeURIComponent(publicId)}`, tokenSchema, "Failed to revoke token"),
  resetOrganizationToken: () => api.call("POST", "/organizations/reset-token", createdTokenSchema, "Failed to reset token"),
});
