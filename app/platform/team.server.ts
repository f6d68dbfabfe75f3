import { z } from "zod";
import type { CreateInvite, InviteQuery } from "@contract/orgs";
import type { MemberQuery, RemoveMember } from "@contract/team";
import { memberRemovedSchema } from "@contract/team";
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
  /** With `revokeMade`, the tokens and codes the member made are revoked with the removal (the answer counts them). */
  remove: (memberId: number, { revokeMade = false }: RemoveMember = {}) =>
    api.call(
      "DELETE",
      `/organizations/members/${memberId}${queryString({ revokeMade: revokeMade ? "true" : undefined })}`,
      memberRemovedSchema,
      "Failed to remove member",
    ),
});
