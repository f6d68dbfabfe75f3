import { sql } from "kysely";
import type { RawBuilder, Transaction } from "kysely";
import type { Deps } from "../context";
import type { Database } from "../db/schema";
import { runPeriodically } from "../periodic";

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
/**
 * A minute is rolled up only once it has been over this long: a usage row is stamped just before its
 * transaction commits, so a row may still arrive a little after its minute ends.
 */
export const ROLLUP_GRACE_MS = 10 * 60_000;
/**
 * What one roll-up transaction covers at most: this many rows (raw rows into hours; hourly rows into
 * days, each into four levels, so fewer), about 10 ms here, and its layer's period (`LAYERS`). On SQLite
 * a transaction holds the process's one event loop, so the rows bound how long any other request waits
 * behind a roll-up; between transactions the loop turns. A period holds as many rows as the organization
 * made calls, so a transaction's end is found by counting rows. The periods bound what counting them
 * reads (and what a transaction holds on PostgreSQL).
 */
export const ROWS_PER_TRANSACTION = { raw: 5_000, hourly: 2_000 };
/** The layers a roll-up reads: their rows' time, the most a part covers, the step their cursor moves by. */
const LAYERS = {
  raw: { table: "chat_usage", column: "created_at", period: 7 * DAY_MS, step: MINUTE_MS },
  hourly: { table: "usage_hourly", column: "hour", period: 31 * DAY_MS, step: DAY_MS },
} as const;

export const floorMinute = (ms: number) => Math.floor(ms / MINUTE_MS) * MINUTE_MS;
export const floorHour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;
export const floorDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
export const ceilDay = (ms: number) => Math.ceil(ms / DAY_MS) * DAY_MS;

/**
 * The sums every layer keeps (raw rows, `usage_hourly`, `usage_daily`), defined once: a layer's rows are
 * summed column by column, except that a raw row is one request.
 */
export const SUM_COLUMNS = ["requests", "prompt_tokens", "completion_tokens", "reasoning_tokens", "cost_micros"] as const;
export type SumColumn = (typeof SUM_COLUMNS)[number];

/** A raw row's keys in the rollups: its API token, 0 for the console; its member, 0 when it has none. */
export const TOKEN_KEY = sql<number>`coalesce(token_id, 0)`;
export const USER_KEY = sql<number>`coalesce(user_id, 0)`;

/** The SELECT list of the sums: of raw `chat_usage` rows, or of rolled-up rows. Cast, as PostgreSQL sums bigints to numeric. */
export function sums(of: "raw" | "rolled") {
  return SUM_COLUMNS.map((column) =>
    (of === "raw" && column === "requests" ? sql<number>`count(*)` : sql<number>`cast(sum(${sql.ref(column)}) as bigint)`).as(column),
  );
}

/** The sums of a row read back (PostgreSQL may answer bigints as strings). */
export interface Sums {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  costMicros: number;
}
export function readSums(row: Record<SumColumn, unknown>): Sums {
  return {
    requests: Number(row.requests),
    promptTokens: Number(row.prompt_tokens),
    completionTokens: Number(row.completion_tokens),
    reasoningTokens: Number(row.reasoning_tokens),
    costMicros: Number(row.cost_micros),
  };
}

/** Where the layers meet: usage before `days` is in `usage_daily`, in [days, hours) in `usage_hourly`, from `hours` on raw. */
export interface RollupBoundaries {
  days: number;
  hours: number;
}

type State = { rolled_until: number; days_until: number | null };
type Cursor = "rolled_until" | "days_until";

async function readState(deps: Pick<Deps, "db">, orgId: number): Promise<State | undefined> {
  const row = await deps.db.selectFrom("usage_rollup_state").select(["rolled_until", "days_until"]).where("org_id", "=", orgId).executeTakeFirst();
  return row && { rolled_until: Number(row.rolled_until), days_until: row.days_until === null ? null : Number(row.days_until) };
}

/**
 * Where the layers meet as `db` sees them now, without rolling anything (`rollUp` rolls first): read in
 * the snapshot a report reads the layers in. Undefined before the first roll-up set both cursors.
 */
export async function rollupBoundaries(db: Deps["db"], orgId: number): Promise<RollupBoundaries | undefined> {
  const state = await readState({ db }, orgId);
  if (!state || state.days_until === null) return undefined;
  return { days: state.days_until, hours: Math.max(state.rolled_until, state.days_until) };
}

const turnEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Where a part of `[start, target)` ends: before the layer's row `ROWS_PER_TRANSACTION` on, to the
 * cursor's step (a minute for hours, a day for days); at least one step on, at most the layer's period.
 */
function partEnd(deps: Deps, orgId: number, layer: keyof typeof LAYERS) {
  const { table, column, period, step } = LAYERS[layer];
  const at = sql.ref(column);
  return async (start: number, target: number) => {
    const until = Math.min(target, start + period);
    const { rows } = await sql<{ at: number }>`select ${at} as at from ${sql.table(table)}
      where org_id = ${orgId} and ${at} >= ${start} and ${at} < ${until}
      order by ${at} limit 1 offset ${sql.lit(ROWS_PER_TRANSACTION[layer])}`.execute(deps.db);
    return rows.length > 0 ? Math.max(start + step, Math.floor(Number(rows[0].at) / step) * step) : until;
  };
}

/**
 * Moves one cursor of the organization's state from `from` to `target`, a part per transaction (ending
 * where `end` says), letting the event loop turn between parts. Each part is claimed by moving the cursor
 * from the value read to the part's end in the same transaction that inserts its sums, so processes
 * rolling up at once never count a period twice: on PostgreSQL the second conditional update waits for
 * the first's row lock and then matches nothing, SQLite runs them one after the other; the loser re-reads
 * where the winner stopped. (A day's primary key would also refuse a double; an hour's row is added to,
 * so for hours the claim is the only guard.)
 */
async function advance(
  deps: Deps,
  orgId: number,
  cursor: Cursor,
  from: number,
  target: number,
  end: (start: number, target: number) => Promise<number>,
  insert: (trx: Transaction<Database>, start: number, until: number) => Promise<unknown>,
): Promise<number> {
  while (from < target) {
    const start = from;
    const until = Math.min(target, await end(start, target));
    const claimed = await deps.db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable("usage_rollup_state")
        .set({ [cursor]: until })
        .where("org_id", "=", orgId)
        .where(cursor, "=", start)
        .returning("org_id")
        .executeTakeFirst();
      if (!moved) return false;
      await insert(trx, start, until);
      return true;
    });
    if (claimed) from = until;
    else {
      const now = (await readState(deps, orgId))?.[cursor];
      from = now === null || now === undefined ? until : Number(now);
    }
    if (from < target) await turnEventLoop();
  }
  return from;
}

const KEYS = ["org_id", "model", "token_key", "user_key"] as const;

/**
 * Adds the raw rows of `[start, until)` to their hours' rows. The cursor moves by the minute, so the open
 * hour's row is added to as the hour goes on: it holds its hour up to the cursor (decision 0092, "Later").
 */
function rollHours(trx: Transaction<Database>, orgId: number, start: number, until: number) {
  const hour = sql<number>`created_at - (created_at % ${sql.lit(HOUR_MS)})`;
  return trx
    .insertInto("usage_hourly")
    .columns(["hour", ...KEYS, ...SUM_COLUMNS])
    .expression(
      trx
        .selectFrom("chat_usage")
        .select([hour.as("hour"), "org_id", "model", TOKEN_KEY.as("token_key"), USER_KEY.as("user_key"), ...sums("raw")])
        .where("org_id", "=", orgId)
        .where("created_at", ">=", start)
        .where("created_at", "<", until)
        .groupBy([hour, "org_id", "model", TOKEN_KEY, USER_KEY]),
    )
    .onConflict((oc) =>
      oc
        .columns(["org_id", "hour", "model", "token_key", "user_key"])
        .doUpdateSet(
          Object.fromEntries(SUM_COLUMNS.map((c) => [c, sql<number>`${sql.ref(`usage_hourly.${c}`)} + ${sql.ref(`excluded.${c}`)}`])) as Record<
            SumColumn,
            RawBuilder<number>
          >,
        ),
    )
    .execute();
}

/**
 * The daily layer's levels (migration 0013): which keys a level keeps, the others being '' or 0. A report
 * reads the coarsest level that keeps every key its filters and breakdown need.
 */
export const DAY_LEVELS = [
  { level: 0, model: true, source: true },
  { level: 1, model: true, source: false },
  { level: 2, model: false, source: true },
  { level: 3, model: false, source: false },
] as const;
export type DayLevel = (typeof DAY_LEVELS)[number]["level"];

export function dayLevel(model: boolean, source: boolean): DayLevel {
  return DAY_LEVELS.find((l) => l.model === model && l.source === source)!.level;
}

function rollDays(trx: Transaction<Database>, orgId: number, start: number, until: number) {
  const day = sql<number>`hour - (hour % ${sql.lit(DAY_MS)})`;
  const [first, ...rest] = DAY_LEVELS.map(({ level, model, source }) =>
    trx
      .selectFrom("usage_hourly")
      .select([
        sql.lit(level).as("level"),
        day.as("day"),
        sql.lit(orgId).as("org_id"),
        (model ? sql<string>`model` : sql.lit("")).as("model"),
        (source ? sql<number>`token_key` : sql.lit(0)).as("token_key"),
        (source ? sql<number>`user_key` : sql.lit(0)).as("user_key"),
        ...sums("rolled"),
      ])
      .where("org_id", "=", orgId)
      .where("hour", ">=", start)
      .where("hour", "<", until)
      .groupBy([day, ...(model ? (["model"] as const) : []), ...(source ? (["token_key", "user_key"] as const) : [])])
      .$castTo<{ level: number; day: number; org_id: number; model: string; token_key: number; user_key: number } & Record<SumColumn, number>>(),
  );
  return trx
    .insertInto("usage_daily")
    .columns(["level", "day", ...KEYS, ...SUM_COLUMNS])
    .expression(first.unionAll(rest))
    .execute();
}

/**
 * Rolls the organization's usage up to the grace's minute into `usage_hourly`, then its days whose every
 * hour is rolled into `usage_daily` (from the hourly rows, a day's 24 hours at most), and answers the
 * boundaries. Called by the readers and the background roller, never on the metered path: what a view
 * still reads raw is the grace and at most a minute more (up to an hour more when the cursor moved by the
 * hour). The first roll-up of an organization starts at the hour of its first usage row; its days, at the
 * day of its first hourly row.
 */
export async function rollUp(deps: Deps, orgId: number): Promise<RollupBoundaries> {
  const target = floorMinute(deps.now() - ROLLUP_GRACE_MS);
  let state = await readState(deps, orgId);
  if (state === undefined) {
    const first = await deps.db
      .selectFrom("chat_usage")
      .select((eb) => eb.fn.min("created_at").as("first"))
      .where("org_id", "=", orgId)
      .executeTakeFirst();
    const start = first?.first === null || first?.first === undefined ? target : Math.min(target, floorHour(Number(first.first)));
    await deps.db
      .insertInto("usage_rollup_state")
      .values({ org_id: orgId, rolled_until: start, days_until: null })
      .onConflict((oc) => oc.column("org_id").doNothing())
      .execute();
    state = (await readState(deps, orgId))!;
  }
  const hours = await advance(deps, orgId, "rolled_until", state.rolled_until, target, partEnd(deps, orgId, "raw"), (trx, start, until) =>
    rollHours(trx, orgId, start, until),
  );

  let daysFrom = state.days_until;
  if (daysFrom === null) {
    // Hourly rows are only ever added at or after the hourly cursor, so days can start at the first one's day.
    const first = await deps.db
      .selectFrom("usage_hourly")
      .select((eb) => eb.fn.min("hour").as("first"))
      .where("org_id", "=", orgId)
      .executeTakeFirst();
    const start = floorDay(first?.first === null || first?.first === undefined ? hours : Math.min(hours, Number(first.first)));
    await deps.db.updateTable("usage_rollup_state").set({ days_until: start }).where("org_id", "=", orgId).where("days_until", "is", null).execute();
    daysFrom = (await readState(deps, orgId))!.days_until!;
  }
  const days = await advance(deps, orgId, "days_until", daysFrom, floorDay(hours), partEnd(deps, orgId, "hourly"), (trx, start, until) =>
    rollDays(trx, orgId, start, until),
  );
  // Another process may have rolled further than this one saw: raw rows before its day cursor are in the days.
  return { days, hours: Math.max(hours, days) };
}

/**
 * Rolls up every organization with usage the roll-up has not reached yet, one after the other, and answers
 * how many it rolled. The background roller's run: views then find at most a few minutes to roll, and an
 * organization nobody looked at for months costs its next view nothing extra.
 */
export async function rollUpActive(deps: Deps): Promise<number> {
  const target = floorMinute(deps.now() - ROLLUP_GRACE_MS);
  const due = await deps.db
    .selectFrom("organizations as o")
    .leftJoin("usage_rollup_state as s", "s.org_id", "o.id")
    .select("o.id")
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom("chat_usage as u")
          .select("u.org_id")
          .whereRef("u.org_id", "=", "o.id")
          .where(({ eb, fn, lit }) => eb("u.created_at", ">=", fn.coalesce("s.rolled_until", lit(0))))
          .where("u.created_at", "<", target),
      ),
    )
    .orderBy("o.id")
    .execute();
  let rolled = 0;
  for (const { id } of due) {
    try {
      await rollUp(deps, id);
      rolled += 1;
    } catch (error) {
      console.error(`Rolling up the usage of organization ${id} failed:`, error);
    }
  }
  return rolled;
}

/** How often the background roller runs: a view finds at most this much (and the grace) unrolled. */
export const ROLLER_EVERY_MS = 5 * 60_000;

/**
 * Runs `rollUpActive` every few minutes (not at start: a large backlog would hold up the boot). Several
 * processes may each run one: the claims keep every period counted once (see `advance`).
 */
export function startUsageRoller(deps: Deps, everyMs = ROLLER_EVERY_MS): { stop: () => Promise<void> } {
  return runPeriodically("Rolling up usage", () => rollUpActive(deps), everyMs, { atStart: false });
}
