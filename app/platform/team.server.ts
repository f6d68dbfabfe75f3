import { z } from "zod";
import type { CreateInvite, InviteQuery } from "@contract/orgs";
import type { MemberQuery } from "@contract/team";
import { activeInviteListSchema } from "@contract/orgs";
import { queryString } from "~/lib/query-string";
import type { PlatformClient } from "./client.server";
import { inviteSchema } from "./schemas";
import type { Role } from "./team";
import { memberListSchema, memberSchema } from "./team";

/** The team calls of SPEC §7, with the default error texts of SPEC §8; invite management is issue 14's. */
export const teamApi = (api: PlatformClient) => ({
  /** Every member, or the search and page asked (contract `memberQuerySchema`). */
  members: (query: MemberQuery = {}) => api.call("GET", `/organizations/members${queryString(query)}`, memberListSchema, "Failed to load members"),
  /** One member by id (anyone else: 404). */
  member: (memberId: number) => api.call("GET", `/organizations/members/${memberId}`, memberSchema, "Failed to load members"),
  invite: (body: CreateInvite) => api.call("POST", "/organizations/invites", inviteSchema, "Failed to generate invite", body),
  /** The newest active codes, or the page asked (contract `inviteQuerySchema`). */
  invites: (query: InviteQuery = {}) => api.call("GET", `/organizations/invites${queryString(query)}`, activeInviteListSchema, "Failed to load invites"),
  revokeInvite: (inviteId: number) => api.call("DELETE", `/organizations/invites/${inviteId}`, z.unknown(), "Failed to revoke invite"),
  changeRole: (memberId: number, role: Role) => api.call("PUT", `/organizations/members/${memberId}`, memberSchema, "Failed to update role", { role }),
  remove: (memberId: number) => api.call("DELETE", `/organizations/members/${memberId}`, z.unknown(), "Failed to remove member"),
});
