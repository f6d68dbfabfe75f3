import { randomInt } from "node:crypto";
import type { Deps } from "../context";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../db/schema";
import type { CreatedOrganization, Invite, InviteKind } from "@contract/orgs";
import type { Member, Role } from "@contract/team";
import { PlatformError } from "../http/errors";
import { normalizeOrganizationName } from "../http/names";
import { insertPrimaryToken } from "../tokens/service";
import { insertAccount } from "../billing/accounts";
import { record } from "../audit/record";

export async function createOrganization(deps: Deps, userId: number, name: string): Promise<CreatedOrganization> {
  if (!deps.config.orgSignupEnabled) throw new PlatformError(403, "Organization signup is disabled");
  name = normalizeOrganizationName(name);
  return deps.db.transaction().execute(async (trx) => {
    const org = await trx.insertInto("organizations").values({ name, created_at: deps.now() }).returning(["id", "name"]).executeTakeFirstOrThrow();
    await trx.insertInto("memberships").values({ org_id: org.id, user_id: userId, role: "admin", created_at: deps.now() }).execute();
    // Every organization has one primary API token (issue 3) and one billing account, made with it.
    await insertPrimaryToken(trx, org.id, userId, deps.now());
    await insertAccount(trx, org.id, deps.now());
    await record(deps, { orgId: org.id, action: "organization.created", new: { name } }, trx);
    return org;
  });
}

// Unambiguous characters (no 0/O, 1/I/L): codes are read aloud and typed by hand.
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const INVITE_CODE_PATTERN = /^[A-HJKMNP-Z2-9]{12}$/;

function inviteCode(): string {
  let code = "";
  for (let i = 0; i < 12; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

export async function createInvite(deps: Deps, orgId: number, userId: number, kind: InviteKind): Promise<Invite> {
  const code = inviteCode();
  await deps.db.insertInto("invites").values({ code, org_id: orgId, kind, created_by: userId, created_at: deps.now(), used_at: null, use_count: 0 }).execute();
  await record(deps, { orgId, action: "invite.created", new: { kind } });
  return { code, kind };
}

const INVALID_INVITE = "This invite code is invalid or has already been used";

/** Joins with an invite code; joining an organization one already belongs to changes nothing. */
export async function joinOrganization(deps: Deps, userId: number, rawCode: string): Promise<{ id: number; name: string }> {
  const code = rawCode.trim().toUpperCase().replace(/[\s-]/g, "");
  if (!INVITE_CODE_PATTERN.test(code)) throw new PlatformError(404, INVALID_INVITE);
  const invite = await deps.db
    .selectFrom("invites")
    .innerJoin("organizations", "organizations.id", "invites.org_id")
    .select(["invites.id", "invites.kind", "invites.used_at", "organizations.id as org_id", "organizations.name"])
    .where("invites.code", "=", code)
    .executeTakeFirst();
  if (!invite) throw new PlatformError(404, INVALID_INVITE);
  const org = { id: invite.org_id, name: invite.name };

  const existing = await deps.db.selectFrom("memberships").select("role").where("org_id", "=", org.id).where("user_id", "=", userId).executeTakeFirst();
  if (existing) return org;

  return deps.db.transaction().execute(async (trx) => {
    // A single-use code is claimed by one conditional update, so two racing joins can't both use it.
    let claim = trx
      .updateTable("invites")
      .set((eb) => ({ use_count: eb("use_count", "+", 1), used_at: deps.now() }))
      .where("id", "=", invite.id);
    if (invite.kind === "single-use") claim = claim.where("used_at", "is", null);
    const claimed = await claim.returning("id").executeTakeFirst();
    if (!claimed) throw new PlatformError(404, INVALID_INVITE);
    await trx.insertInto("memberships").values({ org_id: org.id, user_id: userId, role: "member", created_at: deps.now() }).execute();
    await record(deps, { orgId: org.id, action: "member.joined", new: { role: "member", invite: invite.kind } }, trx);
    return org;
  });
}

/** Whether the organization has a saved card; billing records it. */
export async function hasPaymentMethod(deps: Deps, orgId: number): Promise<boolean> {
  const row = await deps.db.selectFrom("billing_accounts").select("payment_method_id").where("org_id", "=", orgId).executeTakeFirst();
  return Boolean(row?.payment_method_id);
}

export type { Member };

export async function listMembers(deps: Deps, orgId: number): Promise<Member[]> {
  return deps.db
    .selectFrom("memberships")
    .innerJoin("users", "users.id", "memberships.user_id")
    .select(["users.id", "users.name", "users.email", "memberships.role"])
    .where("memberships.org_id", "=", orgId)
    .orderBy("memberships.created_at")
    .orderBy("users.id")
    .execute();
}

async function findMember(deps: Deps, orgId: number, memberId: number): Promise<Member> {
  const member = await deps.db
    .selectFrom("memberships")
    .innerJoin("users", "users.id", "memberships.user_id")
    .select(["users.id", "users.name", "users.email", "memberships.role"])
    .where("memberships.org_id", "=", orgId)
    .where("memberships.user_id", "=", memberId)
    .executeTakeFirst();
  if (!member) throw new PlatformError(404, "Member not found");
  return member;
}

const LAST_ADMIN = "An organization must keep at least one admin";

/**
 * Changes another member's role. Nobody changes their own; a demotion only happens while another
 * admin remains, checked in the same UPDATE so two admins demoting each other can't both succeed.
 */
export async function changeMemberRole(deps: Deps, orgId: number, actorId: number, memberId: number, role: Role): Promise<Member> {
  if (memberId === actorId) throw new PlatformError(403, "You can't change your own role");
  const member = await findMember(deps, orgId, memberId);
  if (member.role === role) return member;
  return lockedByAdmin(deps, orgId, actorId, async (trx) => {
    let update = trx.updateTable("memberships").set({ role }).where("org_id", "=", orgId).where("user_id", "=", memberId);
    if (role !== "admin") update = update.where((eb) => eb.exists(otherAdmins(trx, orgId, memberId)));
    const changed = await update.returning("role").executeTakeFirst();
    if (!changed) throw new PlatformError(409, LAST_ADMIN);
    await record(deps, { orgId, action: "member.role_changed", target: member.email, old: { role: member.role }, new: { role } }, trx);
    return { ...member, role };
  });
}

/** Removes another member; an admin only while another admin remains (same single statement). */
export async function removeMember(deps: Deps, orgId: number, actorId: number, memberId: number): Promise<void> {
  if (memberId === actorId) throw new PlatformError(403, "You can't remove yourself");
  const member = await findMember(deps, orgId, memberId);
  await lockedByAdmin(deps, orgId, actorId, async (trx) => {
    const removed = await trx
      .deleteFrom("memberships")
      .where("org_id", "=", orgId)
      .where("user_id", "=", memberId)
      .where((eb) => eb.or([eb("role", "=", "member"), eb.exists(otherAdmins(trx, orgId, memberId))]))
      .returning("user_id")
      .executeTakeFirst();
    if (!removed) throw new PlatformError(409, LAST_ADMIN);
    await record(deps, { orgId, action: "member.removed", target: member.email, old: { role: member.role } }, trx);
  });
}

/**
 * Runs a membership change while holding the organization's row lock, after checking that the actor
 * is still an admin. Two admins acting on each other at once are serialised: the second one sees the
 * first one's change (on PostgreSQL a conditional statement alone would not, under READ COMMITTED).
 */
async function lockedByAdmin<T>(deps: Deps, orgId: number, actorId: number, change: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return deps.db.transaction().execute(async (trx) => {
    await trx
      .updateTable("organizations")
      .set((eb) => ({ name: eb.ref("name") }))
      .where("id", "=", orgId)
      .execute();
    const actor = await trx.selectFrom("memberships").select("role").where("org_id", "=", orgId).where("user_id", "=", actorId).executeTakeFirst();
    if (actor?.role !== "admin") throw new PlatformError(403, "Only admins can do this");
    return change(trx);
  });
}

function otherAdmins(db: Kysely<Database>, orgId: number, memberId: number) {
  return db
    .selectFrom("memberships as other")
    .select("other.user_id")
    .where("other.org_id", "=", orgId)
    .where("other.role", "=", "admin")
    .where("other.user_id", "!=", memberId);
}
