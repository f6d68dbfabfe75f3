import type { Transaction } from "kysely";
import { SYSTEM_ORG_ID } from "@contract/system";
import type { Deps } from "../context";
import type { Database } from "../db/schema";
import { PlatformError } from "../http/errors";

/** The refusal of a caller who is not, or no longer, an admin: the middleware's and the services' alike. */
export const ADMINS_ONLY = "Only admins can do this";

/**
 * Takes the organization's row lock: membership changes run one at a time per organization, so each
 * one's last-admin check sees the others' (on PostgreSQL a conditional statement alone would not,
 * under READ COMMITTED).
 */
export async function lockOrganization(trx: Transaction<Database>, orgId: number): Promise<void> {
  await trx
    .updateTable("organizations")
    .set((eb) => ({ name: eb.ref("name") }))
    .where("id", "=", orgId)
    .execute();
}

/**
 * Runs an admin's write while holding the organization's row lock, after checking that the actor is
 * still an admin: the middleware read the role when the request began, and another admin may have
 * demoted or removed them since. A demotion takes the same lock, so it lands wholly before the write
 * (which is then refused and writes nothing) or wholly after it; two admins acting on each other at
 * once are serialised the same way, the second one seeing the first one's change.
 */
export async function lockedByAdmin<T>(deps: Pick<Deps, "db">, orgId: number, actorId: number, write: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return deps.db.transaction().execute(async (trx) => {
    await lockOrganization(trx, orgId);
    const actor = await trx.selectFrom("memberships").select("role").where("org_id", "=", orgId).where("user_id", "=", actorId).executeTakeFirst();
    if (actor?.role !== "admin") throw new PlatformError(403, ADMINS_ONLY);
    return write(trx);
  });
}

/**
 * A write of the system organization's (models, credits, organizations' settings): by one of its
 * admins, checked as `lockedByAdmin` checks on organization 1; or by the operator's command line
 * (`actorId` left out), which runs on the server with no caller to check.
 */
export async function bySystemAdmin<T>(deps: Pick<Deps, "db">, actorId: number | undefined, write: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return actorId === undefined ? deps.db.transaction().execute(write) : lockedByAdmin(deps, SYSTEM_ORG_ID, actorId, write);
}
