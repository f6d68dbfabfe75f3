import { z } from "zod";
import { idFromUrl, idToFind, pageLimit } from "./ids";

export const ROLES = ["admin", "member"] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/**
 * A member of the active organization (SPEC §3). `emailVerified` is false when the sign-in provider did
 * not vouch for the email (a GitHub primary email may be unproven); an earlier platform sends none,
 * which marks nothing.
 */
export const memberSchema = z.object({ id: z.number(), name: z.string(), email: z.string(), emailVerified: z.boolean().optional(), role: roleSchema });
export type Member = z.infer<typeof memberSchema>;
export const memberListSchema = z.array(memberSchema);

/** PUT /api/v1/organizations/members/{id}. */
export const changeRoleSchema = z.object({ role: roleSchema });
export const memberParamSchema = z.object({ id: idFromUrl });

/** Members shown on one page of /team; the search box's longest text. */
export const MEMBER_PAGE_SIZE = 50;
export const MEMBER_SEARCH_MAX = 100;
export const MEMBER_PAGE_MAX = 200;

/**
 * GET /api/v1/organizations/members: the list SPEC §7 names, in the order people joined. Its query,
 * all optional (without it, every member, as before): `q` keeps the members whose name or email holds
 * it, in any case; `after={id}` the members who joined after that member, `before={id}` those before
 * (the last `limit` of them), keyset pages as the ledger's; `limit` at most MEMBER_PAGE_MAX.
 * A cursor naming no member of the organization gives an empty list.
 */
export const memberQuerySchema = z.object({
  q: z.string().trim().max(MEMBER_SEARCH_MAX).optional(),
  after: idToFind.text.optional(),
  before: idToFind.text.optional(),
  limit: pageLimit(MEMBER_PAGE_MAX).optional(),
});
export type MemberQuery = z.infer<typeof memberQuerySchema>;

/**
 * DELETE /api/v1/organizations/members/{id}'s query: `revokeMade=true` also revokes the API tokens the
 * member made that still work (never the primary token) and the invite codes they made that can still
 * be used, with the removal. Without it, the removal alone, as before.
 */
export const removeMemberQuerySchema = z.object({
  revokeMade: z
    .enum(["true", "false"], { message: "revokeMade must be true or false" })
    .optional()
    .transform((v) => v === "true"),
});
export type RemoveMember = { revokeMade?: boolean };

/** Its answer: with `revokeMade`, how many of each were revoked (an older platform says neither). */
export const memberRemovedSchema = z.object({ revokedTokens: z.number().int().optional(), revokedInvites: z.number().int().optional() });
export type MemberRemoved = z.infer<typeof memberRemovedSchema>;
