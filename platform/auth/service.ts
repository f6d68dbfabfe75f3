import { PlatformError } from "../http/errors";
import type { Deps } from "../context";
import { SYSTEM_ORG_ID } from "../context";
import { isDevSignin } from "../config";
import type { Member, Role } from "@contract/team";
import { record } from "../audit/record";
import { lockOrganization, removeMembership } from "../orgs/service";
import { SESSION_TTL_MS } from "./cookies";
import { randomToken, sha256 } from "./tokens";
import { compiledOnce } from "../db/compiled";
import { normalizeName, userSearchText } from "../http/names";

export interface Identity {
  provider: string;
  subject: string;
  name: string;
  email: string;
  emailVerified: boolean;
}

const USER_NAME_MAX = 100;

/**
 * The name a provider gives, under the rule every stored name follows (no bidi or control characters:
 * "Alice\u202e nimda" must not read "Alice admin" in a member list); the email when nothing visible is left.
 */
export function userDisplayName(name: string, email: string): string {
  try {
    // Cut, then checked again: a name whose first hundred characters are all invisible (U+3164, U+2800…)
    // would otherwise be stored as a blank.
    const cut = [...normalizeName(name, "Name", Number.MAX_SAFE_INTEGER)].slice(0, USER_NAME_MAX).join("");
    return normalizeName(cut, "Name", USER_NAME_MAX).trim();
  } catch {
    return email; // nothing visible in the provider's name
  }
}

/** Finds or creates the user behind a provider account; users are keyed by (provider, subject). */
export async function upsertUser(deps: Deps, raw: Identity): Promise<number> {
  const identity = { ...raw, name: userDisplayName(raw.name, raw.email) };
  const firstEver = !(await deps.db.selectFrom("users").select("id").limit(1).executeTakeFirst());
  const userId = await linkAccount(deps, identity).catch((error: unknown) => {
    // The same person signing in from two tabs at once on PostgreSQL: the other sign-in made the
    // account while this one made its own user. That user was rolled back; the account is found now.
    if (error instanceof AccountLinkedMeanwhile) return linkAccount(deps, identity);
    throw error;
  });

  const listed = identity.emailVerified && deps.config.systemAdmins.includes(identity.email.toLowerCase());
  if (listed) await grantSystemAdmin(deps, userId, "SYSTEM_ADMINS");
  // On a fresh install in development sign-in mode, the operator is whoever signs in first.
  else if (firstEver && isDevSignin(deps.config)) await grantSystemAdmin(deps, userId, "first sign-in");
  return userId;
}

class AccountLinkedMeanwhile extends Error {}

/** The user of a provider account, updated from what the provider says now; created with the account if new. */
async function linkAccount({ db, now }: Deps, identity: Identity): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const account = await trx
      .selectFrom("oauth_accounts")
      .select("user_id")
      .where("provider", "=", identity.provider)
      .where("subject", "=", identity.subject)
      .executeTakeFirst();
    if (account) {
      await trx
        .updateTable("users")
        .set({ name: identity.name, email: identity.email, email_verified: identity.emailVerified ? 1 : 0, search_text: userSearchText(identity) })
        .where("id", "=", account.user_id)
        .execute();
      return account.user_id;
    }
    const user = await trx
      .insertInto("users")
      .values({
        name: identity.name,
        email: identity.email,
        email_verified: identity.emailVerified ? 1 : 0,
        search_text: userSearchText(identity),
        created_at: now(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const linked = await trx
      .insertInto("oauth_accounts")
      .values({ provider: identity.provider, subject: identity.subject, user_id: user.id, created_at: now() })
      .onConflict((oc) => oc.columns(["provider", "subject"]).doNothing())
      .returning("user_id")
      .executeTakeFirst();
    if (!linked) throw new AccountLinkedMeanwhile();
    return user.id;
  });
}

/** What made someone a system admin, kept in the audit entry ("Platform" is the actor but for the CLI's). */
export type SystemAdminGrant = "SYSTEM_ADMINS" | "first sign-in" | "command line";

type AuditedDeps = Pick<Deps, "db" | "now" | "request" | "operator">;

/**
 * Makes a user an admin of the system organization: "member.joined" or "member.role_changed" in its
 * audit log, as the team page writes them, with `via` saying which rule did it. Nothing is written
 * when they already are (SYSTEM_ADMINS grants again at every sign-in). Returns whether anything changed.
 */
export async function grantSystemAdmin(deps: AuditedDeps, userId: number, via: SystemAdminGrant): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    if (via === "first sign-in") {
      // Two people signing in at once on a fresh install both found no user before them: the system
      // organization's row lock lets the first through, and the second finds an admin there already.
      await trx
        .updateTable("organizations")
        .set((eb) => ({ name: eb.ref("name") }))
        .where("id", "=", SYSTEM_ORG_ID)
        .execute();
      if (await trx.selectFrom("memberships").select("user_id").where("org_id", "=", SYSTEM_ORG_ID).limit(1).executeTakeFirst()) return false;
    }
    const user = await trx.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirstOrThrow();
    const joined = await trx
      .insertInto("memberships")
      .values({ org_id: SYSTEM_ORG_ID, user_id: userId, role: "admin", created_at: deps.now() })
      .onConflict((oc) => oc.columns(["org_id", "user_id"]).doNothing())
      .returning("role")
      .executeTakeFirst();
    if (joined) {
      await record(deps, { orgId: SYSTEM_ORG_ID, action: "member.joined", target: user.email, new: { role: "admin", via } }, trx);
      return true;
    }
    const before = await trx.selectFrom("memberships").select("role").where("org_id", "=", SYSTEM_ORG_ID).where("user_id", "=", userId).executeTakeFirst();
    if (!before || before.role === "admin") return false;
    // Conditional, so two grants at once record one change.
    const promoted = await trx
      .updateTable("memberships")
      .set({ role: "admin" })
      .where("org_id", "=", SYSTEM_ORG_ID)
      .where("user_id", "=", userId)
      .where("role", "!=", "admin")
      .returning("user_id")
      .executeTakeFirst();
    if (!promoted) return false;
    await record(
      deps,
      { orgId: SYSTEM_ORG_ID, action: "member.role_changed", target: user.email, old: { role: before.role }, new: { role: "admin", via } },
      trx,
    );
    return true;
  });
}

/**
 * Takes users out of the system organization (the operator's `system-admin --revoke`), all or none:
 * the team page's removal, with its rule that the last admin stays (409). Returns who was removed.
 */
export async function revokeSystemAdmin(deps: AuditedDeps, userIds: number[]): Promise<Member[]> {
  return deps.db.transaction().execute(async (trx) => {
    await lockOrganization(trx, SYSTEM_ORG_ID);
    const members =
      userIds.length === 0
        ? []
        : await trx
            .selectFrom("memberships")
            .innerJoin("users", "users.id", "memberships.user_id")
            .select(["users.id", "users.name", "users.email", "memberships.role"])
            .where("memberships.org_id", "=", SYSTEM_ORG_ID)
            .where("memberships.user_id", "in", userIds)
            .orderBy("users.id")
            .execute();
    for (const member of members) await removeMembership(deps, trx, SYSTEM_ORG_ID, member);
    return members;
  });
}

/**
 * A new session id for the cookie; only its hash is stored. Any previous session is ended (rotation).
 * It starts in the organization the user last made active (still checked as theirs when resolved).
 */
export async function startSession(deps: Deps, userId: number, previousId?: string): Promise<string> {
  const id = randomToken(32);
  if (previousId) await endSession(deps, previousId);
  const user = await deps.db.selectFrom("users").select("last_active_org_id").where("id", "=", userId).executeTakeFirst();
  await deps.db
    .insertInto("sessions")
    .values({
      id_hash: sha256(id),
      user_id: userId,
      active_org_id: user?.last_active_org_id ?? null,
      expires_at: deps.now() + SESSION_TTL_MS,
      created_at: deps.now(),
    })
    .execute();
  return id;
}

export async function endSession(deps: Pick<Deps, "db">, id: string): Promise<void> {
  await deps.db.deleteFrom("sessions").where("id_hash", "=", sha256(id)).execute();
}

export interface ResolvedSession {
  sessionHash: string;
  user: { id: number; name: string; email: string; emailVerified: boolean };
  organizations: { id: number; name: string; role: Role }[];
  active: { id: number; name: string; role: Role } | null;
}

/** The session's user, and its active organization while the user is still a member of it. */
const callerBySessionHash = compiledOnce((db, hash: string) =>
  db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .leftJoin("memberships", (join) => join.onRef("memberships.user_id", "=", "sessions.user_id").onRef("memberships.org_id", "=", "sessions.active_org_id"))
    .leftJoin("organizations", "organizations.id", "memberships.org_id")
    .select([
      "sessions.expires_at",
      "users.id as user_id",
      "users.name",
      "users.email",
      "users.email_verified",
      "organizations.id as org_id",
      "organizations.name as org_name",
      "memberships.role",
    ])
    .where("sessions.id_hash", "=", hash),
);

const organizationsOf = compiledOnce((db, userId: number) =>
  db
    .selectFrom("memberships")
    .innerJoin("organizations", "organizations.id", "memberships.org_id")
    .select(["organizations.id", "organizations.name", "memberships.role"])
    .where("memberships.user_id", "=", userId)
    .orderBy("memberships.created_at")
    .orderBy("organizations.id"),
);

/**
 * The caller behind a session cookie, with the active organization settled: when the stored one is
 * unset or no longer theirs, the oldest membership is picked and saved, so guards never bounce.
 */
export async function resolveSession(deps: Deps, id: string | undefined): Promise<ResolvedSession | null> {
  if (!id) return null;
  const { db, now } = deps;
  const hash = sha256(id);
  const [row] = await callerBySessionHash(db, hash);
  if (!row) return null;
  if (row.expires_at <= now()) {
    await db.deleteFrom("sessions").where("id_hash", "=", hash).execute();
    return null;
  }
  const organizations = await organizationsOf(db, row.user_id);
  let active = organizations.find((o) => o.id === row.org_id) ?? null;
  if (!active && organizations.length > 0) {
    active = organizations[0];
    await setActiveOrganization(deps, hash, active.id);
  }
  return {
    sessionHash: hash,
    user: { id: row.user_id, name: row.name, email: row.email, emailVerified: row.email_verified === 1 },
    organizations,
    active,
  };
}

export type ResolvedCaller = Omit<ResolvedSession, "organizations">;

/**
 * The caller and their active organization in one query: what every organization-scoped call needs.
 * When there is no active membership to read, it falls back to {@link resolveSession}, which settles one.
 */
export async function resolveCaller(deps: Deps, id: string | undefined): Promise<ResolvedCaller | null> {
  if (!id) return null;
  const hash = sha256(id);
  const [row] = await callerBySessionHash(deps.db, hash);
  if (!row) return null;
  if (row.expires_at <= deps.now() || row.org_id === null || row.org_name === null || row.role === null) return resolveSession(deps, id);
  return {
    sessionHash: hash,
    user: { id: row.user_id, name: row.name, email: row.email, emailVerified: row.email_verified === 1 },
    active: { id: row.org_id, name: row.org_name, role: row.role },
  };
}

/** POST /auth/switch: only to an organization the caller belongs to; any other is not found (DESIGN §3). */
export async function switchOrganization(deps: Pick<Deps, "db">, caller: { userId: number; sessionHash: string }, orgId: number): Promise<void> {
  const membership = await deps.db
    .selectFrom("memberships")
    .select("org_id")
    .where("org_id", "=", orgId)
    .where("user_id", "=", caller.userId)
    .executeTakeFirst();
  if (!membership) throw new PlatformError(404, "Organization not found");
  await setActiveOrganization(deps, caller.sessionHash, orgId);
}

export async function setActiveOrganization(deps: Pick<Deps, "db">, sessionHash: string, orgId: number): Promise<void> {
  await deps.db.updateTable("sessions").set({ active_org_id: orgId }).where("id_hash", "=", sessionHash).execute();
  await deps.db
    .updateTable("users")
    .set({ last_active_org_id: orgId })
    .where("id", "=", (eb) => eb.selectFrom("sessions").select("user_id").where("id_hash", "=", sessionHash))
    .execute();
}
