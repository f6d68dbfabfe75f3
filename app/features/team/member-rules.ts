import type { MemberRemoved } from "@contract/team";
import type { Member, Role } from "~/platform/team";

export const ROLE_OPTIONS: { value: Role; label: string }[] = [
  { value: "member", label: "Member" },
  { value: "admin", label: "Admin" },
];

export function roleLabel(role: Role): string {
  return ROLE_OPTIONS.find((o) => o.value === role)?.label ?? role;
}

/** Admins change and remove other members, never themselves (SPEC §6). */
export function canManageMember(viewer: { userId: number; role: Role }, member: Pick<Member, "id">): boolean {
  return viewer.role === "admin" && member.id !== viewer.userId;
}

export type InviteKind = "single-use" | "multi-use";
export const INVITE_KINDS: { value: InviteKind; label: string }[] = [
  { value: "single-use", label: "Single-use invite" },
  { value: "multi-use", label: "Multi-use invite" },
];

/** Said when revoking what the member made was asked for and the platform (of an earlier contract) said nothing of it. */
export const REVOKE_MADE_UNSUPPORTED =
  "Member removed. The platform did not revoke the API tokens and invite codes they made: revoke them on API Tokens and below.";

/**
 * The removal's message: what was revoked with it, when anything was ("Member removed." alone otherwise).
 * A platform of the earlier contract ignores `revokeMade` and answers without the counts: asked for, their
 * absence means nothing was revoked, which the admin must know.
 */
export function removedText({ revokedTokens, revokedInvites }: MemberRemoved, revokeAsked = false): string {
  if (revokeAsked && revokedTokens === undefined && revokedInvites === undefined) return REVOKE_MADE_UNSUPPORTED;
  return revokedText(revokedTokens ?? 0, revokedInvites ?? 0);
}

function revokedText(revokedTokens: number, revokedInvites: number): string {
  const revoked = [
    revokedTokens > 0 ? `${revokedTokens} ${revokedTokens === 1 ? "API token" : "API tokens"}` : null,
    revokedInvites > 0 ? `${revokedInvites} ${revokedInvites === 1 ? "invite code" : "invite codes"}` : null,
  ].filter((part) => part !== null);
  return revoked.length === 0 ? "Member removed." : `Member removed. Revoked ${revoked.join(" and ")} they made.`;
}
