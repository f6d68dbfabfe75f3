import { z } from "zod";
import { queryString } from "~/lib/query-string";
import type { PlatformClient } from "./client.server";
import { pathSegment } from "./client.server";
import type { GrantCredit, ModelBody, OrganizationChange, OrganizationQuery } from "./system";
import { modelConfigListSchema, organizationListSchema, organizationSummarySchema } from "./system";

/** The system pages' calls (organization 1 only, enforced by the platform). */
export const systemApi = (api: PlatformClient) => ({
  models: () => api.call("GET", "/system/models", modelConfigListSchema, "Failed to load models"),
  saveModel: (name: string, body: ModelBody) => api.call("PUT", modelPath(name), z.unknown(), "Failed to save model", body),
  deleteModel: (name: string) => api.call("DELETE", modelPath(name), z.unknown(), "Failed to delete model"),
  organizations: (query: OrganizationQuery = {}) =>
    api.call("GET", `/system/organizations${queryString(query)}`, organizationListSchema, "Failed to load organizations"),
  updateOrganization: (id: number, change: OrganizationChange) =>
    api.call("PUT", `/system/organizations/${id}`, organizationSummarySchema, "Failed to update organization", change),
  grantCredit: (id: number, credit: GrantCredit) =>
    api.call("POST", `/system/organizations/${id}/credits`, organizationSummarySchema, "Failed to grant credit", credit),
  reverseCredit: (id: number, credit: GrantCredit) =>
    api.call("POST", `/system/organizations/${id}/credit-reversals`, organizationSummarySchema, "Failed to reverse credit", credit),
});

/** The name may hold slashes (`org/model`): each segment is encoded, the slashes kept, as the route expects. */
export function modelPath(name: string): string {
  return `/models/${name.split("/").map(pathSegment).join("/")}`;
}
