import type { Deps } from "../context";
import { sha256 } from "./tokens";

/** As long as the flow cookie lives (platform/auth/cookies.ts). */
export const STATE_TTL_MS = 10 * 60 * 1000;

/**
 * OAuth states are single-use on the server, not only in the browser: the start records the state's
 * hash, the callback consumes it with one conditional delete, so a replayed flow cookie (with a fresh
 * code) finds nothing to consume (decision 0083).
 */
export async function rememberState(deps: Deps, state: string): Promise<void> {
  const now = deps.now();
  await deps.db
    .insertInto("oauth_states")
    .values({ state_hash: sha256(state), expires_at: now + STATE_TTL_MS })
    .execute();
  // Abandoned flows leave rows behind; each start sweeps the expired ones (an indexed primary-key table, small).
  await deps.db.deleteFrom("oauth_states").where("expires_at", "<=", now).execute();
}

/** True once for a state this server issued and that has not expired. */
export async function consumeState(deps: Deps, state: string): Promise<boolean> {
  const row = await deps.db
    .deleteFrom("oauth_states")
    .where("state_hash", "=", sha256(state))
    .where("expires_at", ">", deps.now())
    .returning("state_hash")
    .executeTakeFirst();
  return row !== undefined;
}
