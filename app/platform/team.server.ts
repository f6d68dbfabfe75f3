import { z } from "zod";
import type { InviteKind } from "@contract/orgs";
import type { PlatformClient } from "./client.server";
import { inviteSchema } from "./schemas";
import type { Role } from "./team";
import { memberListSchema, memberSchema } from "./team";

/** The team calls of SPEC §7, with the default error texts of SPEC §8. */
export const teamApi = (api: PlatformClient) => ({
  members: () => api.call("GET", "/organizations/members", memberListSchema, "Failed to load members"),
  invite: (status: InviteKind) => api.call("POST", "/organizations/invites", inviteSchema, "Failed to generate invite", { status }),
  changeRole: (memberId: number, role: Role) => api.call("PUT", `/organizations/members/${memberId}`, memberSchema, "Failed to update role", { role }),
  remove: (memberId: number) => api.call("DELETE", `/organizations/members/${memberId}`, z.unknown(), "Failed to remove member"),
});
