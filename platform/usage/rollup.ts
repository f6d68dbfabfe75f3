import { sql } from "kysely";
import type { Deps } from "../context";

export const HOUR_MS = 3_600_000;
/**
 * An hour is rolled up only once it has been closed this long: a usage row is stamped just before its
 * transaction commits, so a row of the last hour may still arrive a little after the hour ends.
 */
export const ROLLUP_GRACE_MS = 10 * 60_000;
/** Hours rolled per transaction: bounded work (and lock time) however long an organization waited. */
const CHUNK_MS = 7 * 24 * HOUR_MS;

export const floorHour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;

async function rolledUntil(deps: Deps, orgId: number): Promise<number | undefined> {
  const row = await deps.db.selectFrom("usage_rollup_state").select("rolled_until").where("org_id", "=", orgId).executeTakeFirst();
  return row === undefined ? undefined : Number(row.rolled_until);
}

/**
 * Rolls the organization's closed hours up into `usage_hourly` and answers the boundary: usage before it
 * is in the rollups, usage from it on is in `chat_usage` only. Called lazily by the readers (never on
 * the metered path). Each chunk is claimed by moving `rolled_until` from the value read to the chunk's
 * end in the same transaction that inserts its sums, so processes rolling up at once never count an
 * hour twice: the loser's conditional update matches nothing and it re-reads where the winner stopped.
 */
export async function rollUp(deps: Deps, orgId: number): Promise<number> {
  const target = floorHour(deps.now() - ROLLUP_GRACE_MS);
  let from = await rolledUntil(deps, orgId);
  if (from === undefined) {
    const first = await deps.db
      .selectFrom("chat_usage")
      .select((eb) => eb.fn.min("created_at").as("first"))
      .where("org_id", "=", orgId)
      .executeTakeFirst();
    const start = first?.first === null || first?.first === undefined ? target : Math.min(target, floorHour(Number(first.first)));
    await deps.db
      .insertInto("usage_rollup_state")
      .values({ org_id: orgId, rolled_until: start })
      .onConflict((oc) => oc.column("org_id").doNothing())
      .execute();
    from = (await rolledUntil(deps, orgId))!;
  }
  while (from < target) {
    const start = from;
    const until = Math.min(target, start + CHUNK_MS);
    const claimed = await deps.db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable("usage_rollup_state")
        .set({ rolled_until: until })
        .where("org_id", "=", orgId)
        .where("rolled_until", "=", start)
        .returning("org_id")
        .executeTakeFirst();
      if (!moved) return false;
      const hour = sql<number>`created_at - (created_at % ${sql.lit(HOUR_MS)})`;
      const total = (column: string) => sql<number>`cast(sum(${sql.ref(column)}) as bigint)`;
      await trx
        .insertInto("usage_hourly")
        .columns(["org_id", "hour", "model", "token_key", "user_key", "requests", "prompt_tokens", "completion_tokens", "reasoning_tokens", "cost_micros"])
        .expression(
          trx
            .selectFrom("chat_usage")
            .select([
              "org_id",
              hour.as("hour"),
              "model",
              sql<number>`coalesce(token_id, 0)`.as("token_key"),
              sql<number>`coalesce(user_id, 0)`.as("user_key"),
              sql<number>`count(*)`.as("requests"),
              total("prompt_tokens").as("prompt_tokens"),
              total("completion_tokens").as("completion_tokens"),
              total("reasoning_tokens").as("reasoning_tokens"),
              total("cost_micros").as("cost_micros"),
            ])
            .where("org_id", "=", orgId)
            .where("created_at", ">=", start)
            .where("created_at", "<", until)
            .groupBy(["org_id", hour, "model", sql`coalesce(token_id, 0)`, sql`coalesce(user_id, 0)`]),
        )
        .execute();
      return true;
    });
    from = claimed ? until : ((await rolledUntil(deps, orgId)) ?? until);
  }
  return from;
}
