import { createMiddleware } from "hono/factory";
import type { Kysely } from "kysely";
import type { AuditAction } from "@contract/audit";
import type { Deps, PlatformEnv } from "../context";
import type { Database } from "../db/schema";
import { clientAddress } from "../ratelimit/address";

/**
 * The request an audited change runs in. Services are called with ids, not with the request, and the
 * audit needs who and from where: every handler below gets request-scoped `deps` that carry the
 * request, so `record` stays one line in every service and no service signature changes for it
 * (decision 0089). Not an AsyncLocalStorage: on Node 20 that turns promise hooks on for every promise
 * of the process, metered API calls included (decision 0087, third pass).
 */
export const auditScope = createMiddleware<PlatformEnv>(async (c, next) => {
  c.set("deps", { ...c.var.deps, request: c });
  await next();
});

export interface AuditRecord {
  /** The organization whose log gets the entry (null: none, seen by the system organization only). */
  orgId: number | null;
  action: AuditAction;
  /** What was acted on: a token's public id, a member's email, an organization's name. */
  target?: string | null;
  /** JSON values before and after; never a secret. */
  old?: unknown;
  new?: unknown;
  /** Who, when not the request's signed-in caller (a sign-in: the user just signed in). */
  actorId?: number;
  /**
   * Written on the payment provider's word (its webhook), naming the person who asked: the request's
   * address is the provider's, not the person's, so none is recorded (decision 0138).
   */
  viaProvider?: boolean;
}

/**
 * Appends one entry. Pass the transaction of the change when there is one, so the entry and the change
 * are written together or not at all (on SQLite, a query outside the open transaction would wait on it).
 */
export async function record(deps: Pick<Deps, "db" | "now" | "request" | "operator">, entry: AuditRecord, db: Kysely<Database> = deps.db): Promise<void> {
  const c = deps.request;
  const caller = c?.var.caller;
  let actor: { id: number | null; name: string | null; email: string | null; email_verified: number | null } | null = caller
    ? { id: caller.userId, name: caller.name, email: caller.email, email_verified: caller.emailVerified ? 1 : 0 }
    : deps.operator
      ? { id: null, name: deps.operator, email: null, email_verified: null }
      : null;
  if (entry.actorId !== undefined && entry.actorId !== caller?.userId) {
    const user = await db.selectFrom("users").select(["id", "name", "email", "email_verified"]).where("id", "=", entry.actorId).executeTakeFirst();
    actor = user ?? { id: entry.actorId, name: null, email: null, email_verified: null };
  }
  await db
    .insertInto("audit_log")
    .values({
      org_id: entry.orgId,
      actor_id: actor?.id ?? null,
      actor_name: actor?.name ?? null,
      actor_email: actor?.email ?? null,
      actor_email_verified: actor?.email_verified ?? null,
      action: entry.action,
      target: entry.target ?? null,
      old_value: json(entry.old),
      new_value: json(entry.new),
      // Where the actor was: an entry of no one's ("Platform": a recharge a chat's metering started, a
      // refund Stripe reports) has no address, whichever request it was written in (decisions 0138, 0140).
      address: actor && !entry.viaProvider ? ((c && clientAddress(c)) ?? null) : null,
      created_at: deps.now(),
    })
    .execute();
}

/** A change's entry, left out when a save changed nothing (a form saved again as it was): the log lists changes. */
export async function recordChange(deps: Pick<Deps, "db" | "now" | "request" | "operator">, entry: AuditRecord, db: Kysely<Database> = deps.db): Promise<void> {
  if (json(entry.old) === json(entry.new)) return;
  await record(deps, entry, db);
}

function json(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

/**
 * A sign-in is a security event of every organization the user belongs to: one entry in each of their
 * logs (so each one's admins see it), or one of no organization when they belong to none yet.
 */
export async function recordSignIn(deps: Pick<Deps, "db" | "now" | "request" | "operator">, userId: number, provider: string): Promise<void> {
  const memberships = await deps.db.selectFrom("memberships").select("org_id").where("user_id", "=", userId).orderBy("org_id").execute();
  const orgIds = memberships.length > 0 ? memberships.map((m) => m.org_id) : [null];
  for (const orgId of orgIds) await record(deps, { orgId, action: "session.signed_in", actorId: userId, new: { provider } });
}
