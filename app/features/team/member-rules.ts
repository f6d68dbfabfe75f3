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

/** The removal's success message: what was revoked with it, when anything was ("Member removed." alone otherwise). */
export function removedText({ revokedTokens = 0, revokedInvites = 0 }: MemberRemoved): string {
  const revoked = [
    revokedTokens > 0 ? `${revokedTokens} ${revokedTokens === 1 ? "API token" : "API tokens"}` : null,
    revokedInvites > 0 ? `${revokedInvites} ${revokedInvites === 1 ? "invite code" : "invite codes"}` : null,
  ].filter((part) => part !== null);
  return revoked.length === 0 ? "Member removed." : `Member removed. Revoked ${revoked.join(" and ")} they made.`;
}
