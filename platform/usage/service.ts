import { sql } from "kysely";
import type { QueryCreator, SelectQueryBuilder } from "kysely";
import type { Database } from "../db/schema";
import type { Deps } from "../context";
import { microsToDollars } from "../billing/money";
import { PlatformError } from "../http/errors";
import { isMember } from "../orgs/service";
import { monthKey } from "../spend/reservations";
import type { TokenSpend, UsageFigures, UsageFilters, UsagePeriod, UsageReport } from "@contract/usage";
import { USAGE_MEMBER_NOT_FOUND, USAGE_TOKEN_NOT_FOUND } from "@contract/usage";
import type { RollupBoundaries, SumColumn, Sums } from "./rollup";
import { ceilDay, DAY_MS, dayLevel, floorDay, readSums, rollUp, rollupBoundaries, SUM_COLUMNS, sums, TOKEN_KEY, USER_KEY } from "./rollup";

export { DAY_MS };

export function utcDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

const zero = (): Sums => ({ requests: 0, promptTokens: 0, completionTokens: 0, reasoningTokens: 0, costMicros: 0 });

function add(into: Sums, g: Sums): void {
  into.requests += g.requests;
  into.promptTokens += g.promptTokens;
  into.completionTokens += g.completionTokens;
  into.reasoningTokens += g.reasoningTokens;
  into.costMicros += g.costMicros;
}

function figures({ costMicros, ...counts }: Sums): UsageFigures {
  return { ...counts, cost: microsToDollars(costMicros) };
}

const busiest = (a: Sums, b: Sums) => b.costMicros - a.costMicros || b.requests - a.requests;
/** Ties in code-unit order, so the report reads the same on SQLite and on any PostgreSQL collation. */
const byKey = <K>(a: K, b: K) => (a < b ? -1 : a > b ? 1 : 0);

/** A window's usage summed along each dimension the report shows (never the full cross product). */
export interface UsageBreakdown {
  /** Per UTC day number. */
  daily: Map<number, Sums>;
  models: Map<string, Sums>;
  /** Per token id; 0 for the console. */
  tokens: Map<number, Sums>;
  /** Console chat per member (0: unknown). */
  members: Map<number, Sums>;
}

/** Folds the breakdown into the report: totals, a zero-filled day series, per model, per source, per member. */
export function buildReport(
  days: UsagePeriod,
  today: number,
  breakdown: UsageBreakdown,
  tokenNames: Map<number, string>,
  memberNames: Map<number, string> = new Map(),
): UsageReport {
  const first = today - days + 1;
  const totals = zero();
  const daily = Array.from({ length: days }, zero);
  for (const [day, sum] of breakdown.daily) {
    if (day < first || day > today) continue;
    add(totals, sum);
    add(daily[day - first], sum);
  }
  const ranked = <K>(map: Map<K, Sums>) => [...map].filter(([, sum]) => sum.requests > 0).sort(([ka, a], [kb, b]) => busiest(a, b) || byKey(ka, kb));
  return {
    days,
    from: utcDate(first),
    to: utcDate(today),
    totals: figures(totals),
    daily: daily.map((sum, i) => ({ date: utcDate(first + i), ...figures(sum) })),
    models: ranked(breakdown.models).map(([model, sum]) => ({ model, ...figures(sum) })),
    sources: [
      { kind: "console" as const, token: null, ...figures(breakdown.tokens.get(0) ?? zero()) },
      ...ranked(breakdown.tokens)
        .filter(([tokenId]) => tokenId !== 0)
        .map(([tokenId, sum]) => ({ kind: "api" as const, token: tokenNames.get(tokenId) ?? null, ...figures(sum) })),
    ],
    members: ranked(breakdown.members)
      .filter(([member]) => member !== 0)
      .map(([member, sum]) => ({ member, name: memberNames.get(member) ?? null, ...figures(sum) })),
  };
}

/** Filters resolved to the organization's own ids (a token or member it does not have is 404). */
export interface ResolvedFilters {
  model?: string;
  tokenId?: number;
  userId?: number;
}

export async function resolveFilters(deps: Deps, orgId: number, filters: UsageFilters): Promise<ResolvedFilters> {
  const resolved: ResolvedFilters = { model: filters.model };
  if (filters.token !== undefined) {
    const token = await deps.db.selectFrom("api_tokens").select("id").where("org_id", "=", orgId).where("public_id", "=", filters.token).executeTakeFirst();
    if (!token) throw new PlatformError(404, USAGE_TOKEN_NOT_FOUND);
    resolved.tokenId = token.id;
  }
  if (filters.member !== undefined) {
    // Someone who has left stays filterable by what they used here (decision 0140): auditing it is the
    // usual reason to look. Anyone else is not found, so an id tells nothing of another organization.
    const known = (await isMember(deps, orgId, filters.member)) || (await chattedIn(deps.db, orgId, filters.member).executeTakeFirst()) !== undefined;
    if (!known) throw new PlatformError(404, USAGE_MEMBER_NOT_FOUND);
    resolved.userId = filters.member;
  }
  return resolved;
}

/**
 * A row when the user ever chatted in the organization's console (usage rows are never deleted), read
 * through the partial index of console rows `chat_usage_member` (migration 0022): one index probe.
 */
export function chattedIn(db: Deps["db"], orgId: number, userId: number) {
  return db.selectFrom("chat_usage").select("user_id").where("org_id", "=", orgId).where("user_id", "=", userId).limit(1);
}

/** Which layer serves which part of a window (half-open ranges of epoch milliseconds). */
export interface ReadPlan {
  days: [number, number] | null;
  hours: [number, number][];
  raw: [number, number] | null;
}

/**
 * Splits `[since, until)` (hour boundaries) over the layers: whole UTC days the daily layer holds from it,
 * the partial first and last days up to the hourly boundary from `usage_hourly`, the rest (the roll-up's
 * grace and at most a minute more: bounded by time, not by rows) from `chat_usage`. Each instant is read
 * from exactly one layer. The hourly boundary is a minute: an hourly range that ends there reads the open
 * hour's row, which holds its hour up to the boundary.
 */
export function readPlan(since: number, until: number, b: RollupBoundaries): ReadPlan {
  const hoursEnd = Math.min(b.hours, until);
  const dayStart = ceilDay(since);
  const dayEnd = Math.min(b.days, floorDay(until));
  const days: [number, number] | null = dayStart < dayEnd ? [dayStart, dayEnd] : null;
  const hours: [number, number][] = days
    ? [
        [since, Math.min(dayStart, hoursEnd)],
        [dayEnd, hoursEnd],
      ]
    : [[since, hoursEnd]];
  const rawStart = Math.max(since, b.hours);
  return { days, hours: hours.filter(([a, z]) => a < z), raw: rawStart < until ? [rawStart, until] : null };
}

/** Rows at the full grain, merged to whole UTC days (`day`: the day's midnight). */
type Part = { day: number; model: string; token_key: number; user_key: number } & Record<SumColumn, number>;

// The table a part reads differs; its rows don't.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type PartQuery = SelectQueryBuilder<Database, any, Part>;

const dayOf = (column: "hour" | "created_at") => sql<number>`${sql.ref(column)} - (${sql.ref(column)} % ${sql.lit(DAY_MS)})`;

/** What a report sums along: per day (the chart, the totals), per model, per source (token, or member in the console). */
const DIMENSIONS = [
  { name: "day", model: false, source: false },
  { name: "model", model: true, source: false },
  { name: "source", model: false, source: true },
] as const;

/**
 * The organization's usage in `[since, until)` (hour boundaries), filtered, summed per UTC day, per model
 * and per token and member (decisions 0088, 0092), in one statement. The layers are read per `readPlan`;
 * each breakdown reads the daily layer at the coarsest level that keeps the keys it and the filters need
 * (90 rows for the unfiltered chart, 90 per model for the model table…), plus today's hourly rows and the
 * raw rows of the roll-up's grace (ten minutes) at the full grain. So the cost follows days × keys shown,
 * and the request rate only through those ten minutes.
 */
export async function usageBreakdown(deps: Deps, orgId: number, since: number, until: number, filters: ResolvedFilters): Promise<UsageBreakdown> {
  const rolled = await rollUp(deps, orgId);
  // The boundaries and the layers in one snapshot: another process's roll-up committed in between adds
  // the minute it rolls to the open hour's row, which the raw range, bounded by the older boundary, also
  // read, so that minute counted twice (PostgreSQL, decision 0140; SQLite takes no isolation level, and
  // its one connection lets nothing in between).
  return deps.db
    .transaction()
    .setIsolationLevel("repeatable read")
    .execute(async (trx) => breakdownIn(trx, orgId, since, until, filters, (await rollupBoundaries(trx, orgId)) ?? rolled));
}

async function breakdownIn(
  db: Deps["db"],
  orgId: number,
  since: number,
  until: number,
  filters: ResolvedFilters,
  boundaries: RollupBoundaries,
): Promise<UsageBreakdown> {
  const plan = readPlan(since, until, boundaries);
  const sourceFiltered = filters.tokenId !== undefined || filters.userId !== undefined;

  // Hourly and raw rows at the full grain, filtered: a few hundred rows, shared by the three breakdowns.
  const recent: PartQuery[] = [];
  for (const [from, to] of plan.hours) {
    let q = db
      .selectFrom("usage_hourly")
      .select([dayOf("hour").as("day"), "model", "token_key", "user_key", ...sums("rolled")])
      .where("org_id", "=", orgId)
      .where("hour", ">=", from)
      .where("hour", "<", to);
    if (filters.model !== undefined) q = q.where("model", "=", filters.model);
    if (filters.tokenId !== undefined) q = q.where("token_key", "=", filters.tokenId);
    if (filters.userId !== undefined) q = q.where("token_key", "=", 0).where("user_key", "=", filters.userId);
    recent.push(q.groupBy([dayOf("hour"), "model", "token_key", "user_key"]).$castTo<Part>());
  }
  // Always present (an empty range when the window is all rolled up), so the statement always has a part.
  const [rawFrom, rawTo] = plan.raw ?? [until, until];
  let raw = db
    .selectFrom("chat_usage")
    .select([dayOf("created_at").as("day"), "model", TOKEN_KEY.as("token_key"), USER_KEY.as("user_key"), ...sums("raw")])
    .where("org_id", "=", orgId)
    .where("created_at", ">=", rawFrom)
    .where("created_at", "<", rawTo);
  if (filters.model !== undefined) raw = raw.where("model", "=", filters.model);
  if (filters.tokenId !== undefined) raw = raw.where("token_id", "=", filters.tokenId);
  if (filters.userId !== undefined) raw = raw.where("token_id", "is", null).where("user_id", "=", filters.userId);
  recent.push(raw.groupBy([dayOf("created_at"), "model", TOKEN_KEY, USER_KEY]).$castTo<Part>());

  /** The daily rows a breakdown reads: its level, the window's whole days, the filters. */
  const daily = (model: boolean, source: boolean) => {
    let q = db
      .selectFrom("usage_daily")
      .select(["day", "model", "token_key", "user_key", ...SUM_COLUMNS])
      .where("org_id", "=", orgId)
      .where("level", "=", dayLevel(model || filters.model !== undefined, source || sourceFiltered))
      .where("day", ">=", plan.days![0])
      .where("day", "<", plan.days![1]);
    if (filters.model !== undefined) q = q.where("model", "=", filters.model);
    if (filters.tokenId !== undefined) q = q.where("token_key", "=", filters.tokenId);
    if (filters.userId !== undefined) q = q.where("token_key", "=", 0).where("user_key", "=", filters.userId);
    return q.$castTo<Part>();
  };

  const [first, ...rest] = recent;
  const withRecent = db.with("recent", () => first.unionAll(rest));
  // Constants as literals: PostgreSQL can't tell a bound parameter in SELECT is the one in GROUP BY.
  const breakdownOf = ({ name, model, source }: (typeof DIMENSIONS)[number], qc: Pick<QueryCreator<Database & { recent: Part }>, "selectFrom">) =>
    qc
      .selectFrom((eb) => {
        const fresh = eb.selectFrom("recent").selectAll();
        return (plan.days ? daily(model, source).unionAll(fresh) : fresh).as("p");
      })
      .select([
        sql.lit(name).as("dim"),
        (name === "day" ? sql<number>`day` : sql.lit(0)).as("day"),
        (model ? sql<string>`model` : sql.lit("")).as("model"),
        (source ? sql<number>`token_key` : sql.lit(0)).as("token_key"),
        (source ? sql<number>`user_key` : sql.lit(0)).as("user_key"),
        ...sums("rolled"),
      ])
      .groupBy(name === "day" ? ["day"] : model ? ["model"] : ["token_key", "user_key"]);
  // The WITH once, on the first breakdown; the others are plain operands of its UNION ALL.
  const [head, ...tail] = DIMENSIONS;
  // (The operands' builder also knows the head's derived table `p`: the same tables, as far as they read.)
  const statement = tail.reduce((all, dim) => all.unionAll((eb) => breakdownOf(dim, eb as unknown as typeof withRecent)), breakdownOf(head, withRecent));
  const rows = await statement.execute();

  const breakdown: UsageBreakdown = { daily: new Map(), models: new Map(), tokens: new Map(), members: new Map() };
  for (const row of rows) {
    const sum = readSums(row);
    if (row.dim === "day") breakdown.daily.set(Number(row.day) / DAY_MS, sum);
    else if (row.dim === "model") breakdown.models.set(String(row.model), sum);
    else {
      const tokenKey = Number(row.token_key);
      const had = breakdown.tokens.get(tokenKey);
      if (had) add(had, sum);
      else breakdown.tokens.set(tokenKey, { ...sum });
      if (tokenKey === 0) breakdown.members.set(Number(row.user_key), sum);
    }
  }
  return breakdown;
}

/**
 * Ids per `IN (…)` list: SQLite takes at most 32,766 bound values in a statement, and an organization
 * whose 32,767 members chatted in the period answered 500 (PostgreSQL's limit is 65,535).
 */
const IDS_PER_QUERY = 10_000;

/** `find(chunk)` over `ids` (deduplicated, nulls dropped) a chunk at a time, the rows together. */
async function byChunks<Row>(ids: (number | null | undefined)[], find: (chunk: number[]) => Promise<Row[]>): Promise<Row[]> {
  const wanted = [...new Set(ids.filter((id): id is number => !!id))];
  const rows: Row[] = [];
  for (let i = 0; i < wanted.length; i += IDS_PER_QUERY) rows.push(...(await find(wanted.slice(i, i + IDS_PER_QUERY))));
  return rows;
}

/** The public ids of the organization's tokens among `ids`. */
async function tokenNames(deps: Deps, orgId: number, ids: (number | null | undefined)[]): Promise<Map<number, string>> {
  const rows = await byChunks(ids, (chunk) =>
    deps.db.selectFrom("api_tokens").select(["id", "public_id"]).where("org_id", "=", orgId).where("id", "in", chunk).execute(),
  );
  return new Map(rows.map((t) => [t.id, t.public_id]));
}

async function userNames(deps: Deps, ids: (number | null | undefined)[]): Promise<Map<number, string>> {
  const rows = await byChunks(ids, (chunk) => deps.db.selectFrom("users").select(["id", "name"]).where("id", "in", chunk).execute());
  return new Map(rows.map((u) => [u.id, u.name]));
}

/** Those of `ids` who are members of the organization now. */
async function currentMembers(deps: Deps, orgId: number, ids: (number | null | undefined)[]): Promise<Set<number>> {
  const rows = await byChunks(ids, (chunk) =>
    deps.db.selectFrom("memberships").select("user_id").where("org_id", "=", orgId).where("user_id", "in", chunk).execute(),
  );
  return new Set(rows.map((m) => m.user_id));
}

/**
 * The organization's chat usage over the last `days` UTC days (today included), filtered, and who of
 * the people it names has left the organization (decision 0140).
 */
export async function usageReport(deps: Deps, orgId: number, days: UsagePeriod, filters: UsageFilters = {}): Promise<UsageReport> {
  const resolved = await resolveFilters(deps, orgId, filters);
  const today = Math.floor(deps.now() / DAY_MS);
  const breakdown = await usageBreakdown(deps, orgId, (today - days + 1) * DAY_MS, (today + 1) * DAY_MS, resolved);
  // The member filtered by is named even when they did not chat in the period: the filter shows them.
  const named = [...breakdown.members.keys(), resolved.userId];
  const [tokens, users, current] = await Promise.all([
    tokenNames(deps, orgId, [...breakdown.tokens.keys()]),
    userNames(deps, named),
    currentMembers(deps, orgId, named),
  ]);
  const report = buildReport(days, today, breakdown, tokens, users);
  const former = [...new Set([...report.members.map((m) => m.member), resolved.userId])].filter((id): id is number => !!id && !current.has(id));
  return { ...report, formerMembers: former.map((member) => ({ member, name: users.get(member) ?? null })) };
}

/**
 * What each token spent this UTC calendar month (the month budgets count): the month's counter that
 * settlement keeps on the token, in the transaction that writes the usage row and the ledger row
 * (platform/spend/reservations.ts). One row per token however busy the organization is: summing the
 * usage would read the last ten minutes' raw rows, hundreds of thousands for a busy organization (decision 0092).
 */
export async function tokenSpend(deps: Deps, orgId: number): Promise<TokenSpend> {
  const month = monthKey(deps.now());
  const rows = await deps.db
    .selectFrom("api_tokens")
    .select(["public_id", "month_spent_micros"])
    .where("org_id", "=", orgId)
    .where("month_key", "=", month)
    .orderBy("id")
    .execute();
  return { month, tokens: rows.map((r) => ({ token: r.public_id, spent: microsToDollars(Number(r.month_spent_micros)) })) };
}
