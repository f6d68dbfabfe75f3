import { randomInt } from "node:crypto";
import type { Deps } from "../context";
import type { Expression, ExpressionBuilder, Kysely, SqlBool, Transaction } from "kysely";
import { sql } from "kysely";
import type { Database } from "../db/schema";
import type { ActiveInvite, CreateInvite, CreatedOrganization, Invite, InviteQuery } from "@contract/orgs";
import { INVITE_EXPIRED, INVITE_EXPIRY_RULE, INVITE_INVALID, INVITE_MAX_LIFETIME_MS, INVITE_PAGE_MAX, INVITE_REVOKED } from "@contract/orgs";
import type { Member, MemberQuery, MemberRemoved, RemoveMember, Role } from "@contract/team";
import { compiledOnce, compiledPerPageSize } from "../db/compiled";
import { PlatformError } from "../http/errors";
import { ORGANIZATION_CREATION_PER_USER, TooManyRequests } from "../ratelimit/limits";
import { hit } from "../ratelimit/store";
import { containsPattern, foldForSearch, normalizeOrganizationName } from "../http/names";
import { insertPrimaryToken, revokeLiveTokens } from "../tokens/service";
import { insertAccount } from "../billing/accounts";
import { record } from "../audit/record";
import { lockedByAdmin } from "./admin-lock";

export { lockOrganization } from "./admin-lock";

export async function createOrganization(deps: Deps, userId: number, name: string): Promise<CreatedOrganization> {
  if (!deps.config.orgSignupEnabled) throw new PlatformError(403, "Organization signup is disabled");
  name = normalizeOrganizationName(name);
  const allowed = await hit(deps, `org-create:user:${userId}`, ORGANIZATION_CREATION_PER_USER);
  if (!allowed.ok) {
    const minutes = Math.ceil(allowed.retryAfterSeconds / 60);
    throw new TooManyRequests(
      allowed.retryAfterSeconds,
      `Too many organizations created: at most ${ORGANIZATION_CREATION_PER_USER.limit} an hour. Try again in ${minutes} min.`,
    );
  }
  return deps.db.transaction().execute(async (trx) => {
    const org = await trx
      .insertInto("organizations")
      .values({ name, name_search: foldForSearch(name), created_at: deps.now() })
      .returning(["id", "name"])
      .executeTakeFirstOrThrow();
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

/**
 * How the audit log names a code: its first four characters, enough to find it in the list of codes,
 * never the whole code, which would let anyone reading the log (or its export) join while it is valid.
 */
function inviteTarget(code: string): string {
  return `${code.slice(0, 4)}…`;
}

/** Creates a code of the organization (its admins); a single-use code is one with at most one use. */
export async function createInvite(deps: Deps, orgId: number, userId: number, options: CreateInvite): Promise<Invite> {
  const now = deps.now();
  const expiresAt = options.expiresAt ?? null;
  if (expiresAt !== null && (expiresAt <= now || expiresAt > now + INVITE_MAX_LIFETIME_MS)) {
    throw new PlatformError(400, INVITE_EXPIRY_RULE, { fields: { expiresAt: INVITE_EXPIRY_RULE } });
  }
  const maxUses = options.status === "single-use" ? 1 : (options.maxUses ?? null);
  const code = inviteCode();
  await lockedByAdmin(deps, orgId, userId, async (trx) => {
    await trx
      .insertInto("invites")
      .values({
        code,
        org_id: orgId,
        kind: options.status,
        created_by: userId,
        created_at: now,
        used_at: null,
        use_count: 0,
        expires_at: expiresAt,
        max_uses: maxUses,
        revoked_at: null,
      })
      .execute();
    await record(deps, { orgId, action: "invite.created", target: inviteTarget(code), new: { kind: options.status, expiresAt, maxUses } }, trx);
  });
  return { code, kind: options.status, expiresAt, maxUses };
}

/** The conditions under which a code can still be used at `now`: one rule for the list and the claim. */
function usable(now: number) {
  return (eb: ExpressionBuilder<Database, "invites">) =>
    eb.and([
      eb("invites.revoked_at", "is", null),
      eb.or([eb("invites.expires_at", "is", null), eb("invites.expires_at", ">", now)]),
      eb.or([eb("invites.max_uses", "is", null), eb("invites.use_count", "<", eb.ref("invites.max_uses"))]),
    ]);
}

const activeInvites = (db: Kysely<Database>, orgId: number, now: number) =>
  db
    .selectFrom("invites")
    .innerJoin("users", "users.id", "invites.created_by")
    .select([
      "invites.id",
      "invites.code",
      "invites.kind",
      "invites.created_at",
      "invites.use_count",
      "invites.max_uses",
      "invites.expires_at",
      "users.id as creator_id",
      "users.name as creator_name",
    ])
    .where("invites.org_id", "=", orgId)
    .where(usable(now));

/** The first page, the one /team shows: compiled once. Ids grow with time, so newest first is by id. */
const newestInvites = compiledPerPageSize((db, limit, orgId: number, now: number) => activeInvites(db, orgId, now).orderBy("invites.id", "desc").limit(limit));

/**
 * The organization's codes that can still be used, newest first, with their makers (admins, issue 14):
 * the page the query asks for (contract `inviteQuerySchema`), keyset on the id.
 */
export async function listActiveInvites(deps: Deps, orgId: number, query: InviteQuery = {}): Promise<ActiveInvite[]> {
  const { before, after, limit = INVITE_PAGE_MAX } = query;
  let rows;
  if (before === undefined && after === undefined) rows = await newestInvites(deps.db, limit, orgId, deps.now());
  else if (after === undefined)
    rows = await activeInvites(deps.db, orgId, deps.now()).where("invites.id", "<", before!).orderBy("invites.id", "desc").limit(limit).execute();
  else {
    // Newer than `after`: the nearest ones first, so the limit keeps those, then newest first again.
    const nearest = await activeInvites(deps.db, orgId, deps.now()).where("invites.id", ">", after).orderBy("invites.id", "asc").limit(limit).execute();
    rows = nearest.reverse();
  }
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    kind: r.kind,
    createdAt: Number(r.created_at),
    createdBy: { id: r.creator_id, name: r.creator_name },
    uses: Number(r.use_count),
    maxUses: r.max_uses === null ? null : Number(r.max_uses),
    expiresAt: r.expires_at === null ? null : Number(r.expires_at),
  }));
}

/**
 * Revokes a code of the organization (its admins); another organization's (or no) code is 404, an
 * inactive one is left as it is.
 */
export async function revokeInvite(deps: Deps, orgId: number, actorId: number, inviteId: number): Promise<void> {
  await lockedByAdmin(deps, orgId, actorId, async (trx) => {
    const invite = await trx.selectFrom("invites").select("id").where("id", "=", inviteId).where("org_id", "=", orgId).executeTakeFirst();
    if (!invite) throw new PlatformError(404, "Invite not found");
    await revokeInvites(deps, trx, orgId, (eb) => eb("invites.id", "=", inviteId));
  });
}

/**
 * Revokes the organization's codes that `which` picks and that can still be used, with one
 * "invite.revoked" entry each, in the caller's transaction (holding the organization's lock). Returns
 * how many. An expired or used-up code is left as it is: revoking it changes nothing anyone can do.
 */
async function revokeInvites(
  deps: Pick<Deps, "db" | "now" | "request" | "operator">,
  trx: Transaction<Database>,
  orgId: number,
  which: (eb: ExpressionBuilder<Database, "invites">) => Expression<SqlBool>,
): Promise<number> {
  const now = deps.now();
  const revoked = await trx
    .updateTable("invites")
    .set({ revoked_at: now })
    .where("invites.org_id", "=", orgId)
    .where(usable(now))
    .where(which)
    .returning(["code", "kind"])
    .execute();
  // Only a revocation that changed the row is recorded: two admins racing leave one entry.
  for (const invite of revoked) await record(deps, { orgId, action: "invite.revoked", target: inviteTarget(invite.code), old: { kind: invite.kind } }, trx);
  return revoked.length;
}

/**
 * Joins with an invite code; joining an organization one already belongs to changes nothing. A revoked,
 * expired or used-up code is refused with 404 and a message saying which (the console shows it, SPEC §8).
 */
export async function joinOrganization(deps: Deps, userId: number, rawCode: string): Promise<{ id: number; name: string }> {
  const code = rawCode.trim().toUpperCase().replace(/[\s-]/g, "");
  if (!INVITE_CODE_PATTERN.test(code)) throw new PlatformError(404, INVITE_INVALID);
  const invite = await deps.db
    .selectFrom("invites")
    .innerJoin("organizations", "organizations.id", "invites.org_id")
    .select([
      "invites.id",
      "invites.kind",
      "invites.revoked_at",
      "invites.expires_at",
      "invites.max_uses",
      "invites.use_count",
      "organizations.id as org_id",
      "organizations.name",
    ])
    .where("invites.code", "=", code)
    .executeTakeFirst();
  if (!invite) throw new PlatformError(404, INVITE_INVALID);
  const org = { id: invite.org_id, name: invite.name };

  const existing = await deps.db.selectFrom("memberships").select("role").where("org_id", "=", org.id).where("user_id", "=", userId).executeTakeFirst();
  if (existing) return org;

  const now = deps.now();
  if (invite.revoked_at !== null) throw new PlatformError(404, INVITE_REVOKED);
  if (invite.expires_at !== null && Number(invite.expires_at) <= now) throw new PlatformError(404, INVITE_EXPIRED);
  if (invite.max_uses !== null && Number(invite.use_count) >= Number(invite.max_uses)) throw new PlatformError(404, INVITE_INVALID);

  return deps.db.transaction().execute(async (trx) => {
    // The membership first: the same person joining twice at once (a double submit) gets in once, and
    // the second join finds the membership and claims no use.
    const joined = await trx
      .insertInto("memberships")
      .values({ org_id: org.id, user_id: userId, role: "member", created_at: now })
      .onConflict((oc) => oc.columns(["org_id", "user_id"]).doNothing())
      .returning("user_id")
      .executeTakeFirst();
    if (!joined) return org;
    // One conditional update claims a use, so racing joins can't go past the maximum (or a revocation).
    const claimed = await trx
      .updateTable("invites")
      .set((eb) => ({ use_count: eb("use_count", "+", 1), used_at: now }))
      .where("id", "=", invite.id)
      .where(usable(now))
      .returning("id")
      .executeTakeFirst();
    if (!claimed) throw new PlatformError(404, INVITE_INVALID);
    // The code named as invite.created and invite.revoked name it: an admin who revokes a leaked code
    // finds who got in through it.
    await record(deps, { orgId: org.id, action: "member.joined", target: inviteTarget(code), new: { role: "member", invite: invite.kind } }, trx);
    return org;
  });
}

const paymentMethodOf = compiledOnce((db, orgId: number) => db.selectFrom("billing_accounts").select("payment_method_id").where("org_id", "=", orgId));

/** Whether the organization has a saved card; billing records it. Every page's session answer asks. */
export async function hasPaymentMethod(deps: Deps, orgId: number): Promise<boolean> {
  const [row] = await paymentMethodOf(deps.db, orgId);
  return Boolean(row?.payment_method_id);
}

export type { Member };

const membersOf = compiledOnce((db, orgId: number) => members(db, orgId).orderBy("memberships.created_at").orderBy("users.id"));
/** /team's usual page, the first without a search: compiled once, as the page is measured (issue 15). */
const firstMembers = compiledPerPageSize((db, limit, orgId: number) => members(db, orgId).orderBy("memberships.created_at").orderBy("users.id").limit(limit));

const members = (db: Kysely<Database>, orgId: number) =>
  db
    .selectFrom("memberships")
    .innerJoin("users", "users.id", "memberships.user_id")
    .select(["users.id", "users.name", "users.email", "users.email_verified", "memberships.role"])
    .where("memberships.org_id", "=", orgId);

type MemberRow = Omit<Member, "emailVerified"> & { email_verified: number };

/**
 * Whether the provider vouched for the email goes with it: a GitHub account's primary email may be
 * unproven, and an admin reading /team must not take it for the colleague's address (DESIGN §3).
 */
const toMember = ({ email_verified, ...member }: MemberRow): Member => ({ ...member, emailVerified: email_verified === 1 });

/**
 * The organization's members in the order they joined (SPEC §7), all of them or the page the query
 * asks for (contract `memberQuerySchema`): keyset on (joined at, user id), so a page costs the same
 * however many members come before it.
 */
export async function listMembers(deps: Deps, orgId: number, query: MemberQuery = {}): Promise<Member[]> {
  const { q, after, before, limit } = query;
  if (!q && after === undefined && before === undefined) {
    const rows = await (limit === undefined ? membersOf(deps.db, orgId) : firstMembers(deps.db, limit, orgId));
    return rows.map(toMember);
  }
  let select = members(deps.db, orgId);
  if (q) {
    const pattern = sql<string>`${containsPattern(q)} escape '\\'`;
    // A user an older build signed in during a rolling upgrade has no search text yet: matched as the
    // database folds (A–Z alone on SQLite) until their next sign-in writes it.
    select = select.where((eb) =>
      eb.or([
        eb("users.search_text", "like", pattern),
        eb.and([eb("users.search_text", "=", ""), eb(sql<string>`lower(users.name || ' ' || users.email)`, "like", pattern)]),
      ]),
    );
  }
  // One cursor: `after` when both are given.
  const backwards = after === undefined && before !== undefined;
  const cursorId = after ?? before;
  if (cursorId !== undefined) {
    const cursor = await deps.db.selectFrom("memberships").select("created_at").where("org_id", "=", orgId).where("user_id", "=", cursorId).executeTakeFirst();
    if (!cursor) return [];
    const op = backwards ? "<" : ">";
    select = select.where((eb) =>
      eb.or([
        eb("memberships.created_at", op, cursor.created_at),
        eb.and([eb("memberships.created_at", "=", cursor.created_at), eb("users.id", op, cursorId)]),
      ]),
    );
  }
  // Before a cursor: the nearest members first, so the limit keeps those, then back in joined order.
  const direction = backwards ? "desc" : "asc";
  select = select.orderBy("memberships.created_at", direction).orderBy("users.id", direction);
  if (limit !== undefined) select = select.limit(limit);
  const rows = (await select.execute()).map(toMember);
  return backwards ? rows.reverse() : rows;
}

/** A member of the organization by user id; 404 "Member not found" for anyone else. */
export async function findMember(db: Kysely<Database> | Transaction<Database>, orgId: number, memberId: number): Promise<Member> {
  const member = await members(db, orgId).where("memberships.user_id", "=", memberId).executeTakeFirst();
  if (!member) throw new PlatformError(404, "Member not found");
  return toMember(member);
}

export const LAST_ADMIN = "An organization must keep at least one admin";

/**
 * Changes another member's role. Nobody changes their own; a demotion only happens while another
 * admin remains, checked in the same UPDATE so two admins demoting each other can't both succeed.
 */
export async function changeMemberRole(deps: Deps, orgId: number, actorId: number, memberId: number, role: Role): Promise<Member> {
  if (memberId === actorId) throw new PlatformError(403, "You can't change your own role");
  const before = await findMember(deps.db, orgId, memberId);
  if (before.role === role) return before;
  return lockedByAdmin(deps, orgId, actorId, async (trx) => {
    // Read again under the lock: another admin may have removed them, or changed their role, meanwhile.
    const member = await findMember(trx, orgId, memberId);
    if (member.role === role) return member;
    let update = trx.updateTable("memberships").set({ role }).where("org_id", "=", orgId).where("user_id", "=", memberId);
    if (role !== "admin") update = update.where((eb) => eb.exists(otherAdmins(trx, orgId, memberId)));
    const changed = await update.returning("role").executeTakeFirst();
    if (!changed) throw new PlatformError(409, LAST_ADMIN);
    await record(deps, { orgId, action: "member.role_changed", target: member.email, old: { role: member.role }, new: { role } }, trx);
    return { ...member, role };
  });
}

/** Whether a user still belongs to an organization (a long chat stream asks again). */
export async function isMember(deps: Deps, orgId: number, userId: number): Promise<boolean> {
  const row = await deps.db.selectFrom("memberships").select("user_id").where("org_id", "=", orgId).where("user_id", "=", userId).executeTakeFirst();
  return row !== undefined;
}

/**
 * Removes another member; an admin only while another admin remains (same single statement). With
 * `revokeMade`, the API tokens they made that still work (never the primary token) and the codes they
 * made that can still be used are revoked with the removal, under the same lock: the tokens are the
 * organization's (SPEC §3), so the admin chooses, but a member removed keeps no way in that they made.
 */
export async function removeMember(deps: Deps, orgId: number, actorId: number, memberId: number, options: RemoveMember = {}): Promise<MemberRemoved> {
  if (memberId === actorId) throw new PlatformError(403, "You can't remove yourself");
  await findMember(deps.db, orgId, memberId);
  // Read again under the lock: a removal that lost a race with another one is "not found", not "last admin".
  return lockedByAdmin(deps, orgId, actorId, async (trx) => {
    await removeMembership(deps, trx, orgId, await findMember(trx, orgId, memberId));
    if (!options.revokeMade) return {};
    const tokens = await revokeLiveTokens(deps, trx, orgId, { createdBy: memberId });
    const now = deps.now();
    const invites = await revokeInvites(deps, trx, orgId, (eb) => eb.and([eb("invites.created_by", "=", memberId), usable(now)(eb)]));
    return { revokedTokens: tokens.length, revokedInvites: invites };
  });
}

/**
 * The removal itself, for the team page and the operator's `system-admin --revoke`: refused (409) for
 * the last admin, in the same statement. Run it in a transaction that holds `lockOrganization`.
 */
export async function removeMembership(
  deps: Pick<Deps, "db" | "now" | "request" | "operator">,
  trx: Transaction<Database>,
  orgId: number,
  member: Member,
): Promise<void> {
  const removed = await trx
    .deleteFrom("memberships")
    .where("org_id", "=", orgId)
    .where("user_id", "=", member.id)
    .where((eb) => eb.or([eb("role", "=", "member"), eb.exists(otherAdmins(trx, orgId, member.id))]))
    .returning("user_id")
    .executeTakeFirst();
  if (!removed) throw new PlatformError(409, LAST_ADMIN);
  await record(deps, { orgId, action: "member.removed", target: member.email, old: { role: member.role } }, trx);
}

function otherAdmins(db: Kysely<Database>, orgId: number, memberId: number) {
  return db
    .selectFrom("memberships as other")
    .select("other.user_id")
    .where("other.org_id", "=", orgId)
    .where("other.role", "=", "admin")
    .where("other.user_id", "!=", memberId);
}
