import type { CreateToken, TokenSettings } from "@contract/tokens";
import type { RollGrace } from "@contract/token-rotation";
import type { PlatformClient } from "./client.server";
import { pathSegment } from "./client.server";
import { createdTokenSchema, scopeListSchema, tokenListSchema, tokenSchema } from "./tokens";

/** The tokens calls of SPEC §7, with the default error texts of SPEC §8. */
export const tokensApi = (api: PlatformClient) => ({
  list: () => api.call("GET", "/tokens", tokenListSchema, "Failed to load tokens"),
  scopes: () => api.call("GET", "/tokens/scopes", scopeListSchema, "Failed to load tokens"),
  create: (input: CreateToken) => api.call("POST", "/tokens", createdTokenSchema, "Failed to create token", input),
  updateSettings: (publicId: string, settings: TokenSettings) =>
    api.call("PUT", `/tokens/${pathSegment(publicId)}`, tokenSchema, "Failed to save token settings", settings),
  roll: (publicId: string, grace: RollGrace, version?: string) =>
    api.call("POST", `/tokens/${pathSegment(publicId)}/roll`, createdTokenSchema, "Failed to roll token", { grace, version }),
  revoke: (publicId: string) => api.call("DELETE", `/tokens/${pathSegment(publicId)}`, tokenSchema, "Failed to revoke token"),
  resetOrganizationToken: (version?: string) =>
    api.call("POST", "/organizations/reset-token", createdTokenSchema, "Failed to reset token", version === undefined ? undefined : { version }),
});
