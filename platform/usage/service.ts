import { sql } from "kysely";
import type { Deps } from "../context";
import { microsToDollars } from "../billing/money";
import { PlatformError } from "../http/errors";
import { monthKey } from "../spend/reservations";
import type { TokenSpend, UsageFigures, UsageFilters, UsagePeriod, UsageReport } from "@contract/usage";
import { USAGE_MEMBER_NOT_FOUND, USAGE_TOKEN_NOT_FOUND } from "@contract/usage";
import { rollUp } from "./rollup";

export const DAY_MS = 86_400_000;

/** One grouped row of `chat_usage`: a day, a model and a caller kind. */
export interface UsageGroup {
  day: number;
  model: string;
  tokenId: number | null;
  /** The member who chatted in the console (null for API calls, or unknown). */
  userId?: number | null;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  costMicros: number;
}

export function utcDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

type Sum = Omit<UsageFigures, "cost"> & { costMicros: number };
const zero = (): Sum => ({ requests: 0, promptTokens: 0, completionTokens: 0, reasoningTokens: 0, costMicros: 0 });

function add(into: Sum, g: Sum): void {
  into.requests += g.requests;
  into.promptTokens += g.promptTokens;
  into.completionTokens += g.completionTokens;
  into.reasoningTokens += g.reasoningTokens;
  into.costMicros += g.costMicros;
}

function figures({ costMicros, ...counts }: Sum): UsageFigures {
  return { ...counts, cost: microsToDollars(costMicros) };
}

const busiest = (a: Sum, b: Sum) => b.costMicros - a.costMicros || b.requests - a.requests;

/** Folds grouped rows into the report: totals, a zero-filled day series, per model and per source. */
export function buildReport(
  days: UsagePeriod,
  today: number,
  groups: UsageGroup[],
  tokenNames: Map<number, string>,
  memberNames: Map<number, string> = new Map(),
): UsageReport {
  const first = today - days + 1;
  const totals = zero();
  const daily = Array.from({ length: days }, zero);
  const models = new Map<string, Sum>();
  const sources = new Map<number | null, Sum>([[null, zero()]]);
  const members = new Map<number, Sum>();
  for (const g of groups) {
    if (g.day < first || g.day > today) continue;
    add(totals, g);
    add(daily[g.day - first], g);
    if (!models.has(g.model)) models.set(g.model, zero());
    add(models.get(g.model)!, g);
    if (!sources.has(g.tokenId)) sources.set(g.tokenId, zero());
    add(sources.get(g.tokenId)!, g);
    if (g.tokenId === null && g.userId) {
      if (!members.has(g.userId)) members.set(g.userId, zero());
      add(members.get(g.userId)!, g);
    }
  }
  const consoleSum = sources.get(null)!;
  sources.delete(null);
  return {
    days,
    from: utcDate(first),
    to: utcDate(today),
    totals: figures(totals),
    daily: daily.map((sum, i) => ({ date: utcDate(first + i), ...figures(sum) })),
    models: [...models].sort(([, a], [, b]) => busiest(a, b)).map(([model, sum]) => ({ model, ...figures(sum) })),
    sources: [
      { kind: "console" as const, token: null, ...figures(consoleSum) },
      ...[...sources]
        .sort(([, a], [, b]) => busiest(a, b))
        .map(([tokenId, sum]) => ({ kind: "api" as const, token: tokenNames.get(tokenId!) ?? null, ...figures(sum) })),
    ],
    members: [...members].sort(([, a], [, b]) => busiest(a, b)).map(([member, sum]) => ({ member, name: memberNames.get(member) ?? null, ...figures(sum) })),
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
    const member = await deps.db
      .selectFrom("memberships")
      .select("user_id")
      .where("org_id", "=", orgId)
      .where("user_id", "=", filters.member)
      .executeTakeFirst();
    if (!member) throw new PlatformError(404, USAGE_MEMBER_NOT_FOUND);
    resolved.userId = member.user_id;
  }
  return resolved;
}

const total = (column: string) => sql<number>`cast(sum(${sql.ref(column)}) as bigint)`;

/**
 * The organization's usage since `since` (a UTC hour boundary), grouped per UTC day, model, token and
 * member: closed hours from the rollups, the hours after the rollup boundary from the raw rows (decision
 * 0088). So a 90-day report reads at most 90 × 24 rollup rows per model, token and member, whatever
 * the number of requests, plus the raw rows of the last hour or so.
 */
export async function groupedUsage(deps: Deps, orgId: number, since: number, filters: ResolvedFilters): Promise<UsageGroup[]> {
  const boundary = await rollUp(deps, orgId);
  const rolledDay = sql<number>`hour / ${sql.lit(DAY_MS)}`;
  let rolled = deps.db
    .selectFrom("usage_hourly")
    .select([
      rolledDay.as("day"),
      "model",
      "token_key",
      "user_key",
      total("requests").as("requests"),
      total("prompt_tokens").as("prompt_tokens"),
      total("completion_tokens").as("completion_tokens"),
      total("reasoning_tokens").as("reasoning_tokens"),
      total("cost_micros").as("cost_micros"),
    ])
    .where("org_id", "=", orgId)
    .where("hour", ">=", since)
    .where("hour", "<", boundary);
  if (filters.model !== undefined) rolled = rolled.where("model", "=", filters.model);
  if (filters.tokenId !== undefined) rolled = rolled.where("token_key", "=", filters.tokenId);
  if (filters.userId !== undefined) rolled = rolled.where("token_key", "=", 0).where("user_key", "=", filters.userId);

  const rawDay = sql<number>`created_at / ${sql.lit(DAY_MS)}`;
  let raw = deps.db
    .selectFrom("chat_usage")
    .select([
      rawDay.as("day"),
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
    .where("created_at", ">=", Math.max(since, boundary));
  if (filters.model !== undefined) raw = raw.where("model", "=", filters.model);
  if (filters.tokenId !== undefined) raw = raw.where("token_id", "=", filters.tokenId);
  if (filters.userId !== undefined) raw = raw.where("token_id", "is", null).where("user_id", "=", filters.userId);

  const [rolledRows, rawRows] = await Promise.all([
    since < boundary ? rolled.groupBy([rolledDay, "model", "token_key", "user_key"]).execute() : Promise.resolve([]),
    raw.groupBy([rawDay, "model", sql`coalesce(token_id, 0)`, sql`coalesce(user_id, 0)`]).execute(),
  ]);
  return [...rolledRows, ...rawRows].map((r) => ({
    day: Number(r.day),
    model: r.model,
    tokenId: Number(r.token_key) || null,
    userId: Number(r.user_key) || null,
    requests: Number(r.requests),
    promptTokens: Number(r.prompt_tokens),
    completionTokens: Number(r.completion_tokens),
    reasoningTokens: Number(r.reasoning_tokens),
    costMicros: Number(r.cost_micros),
  }));
}

/** The public ids of the organization's tokens among `ids`. */
async function tokenNames(deps: Deps, orgId: number, ids: (number | null | undefined)[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id): id is number => !!id))];
  if (wanted.length === 0) return new Map();
  const rows = await deps.db.selectFrom("api_tokens").select(["id", "public_id"]).where("org_id", "=", orgId).where("id", "in", wanted).execute();
  return new Map(rows.map((t) => [t.id, t.public_id]));
}

async function userNames(deps: Deps, ids: (number | null | undefined)[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id): id is number => !!id))];
  if (wanted.length === 0) return new Map();
  const rows = await deps.db.selectFrom("users").select(["id", "name"]).where("id", "in", wanted).execute();
  return new Map(rows.map((u) => [u.id, u.name]));
}

/** The organization's chat usage over the last `days` UTC days (today included), filtered. */
export async function usageReport(deps: Deps, orgId: number, days: UsagePeriod, filters: UsageFilters = {}): Promise<UsageReport> {
  const resolved = await resolveFilters(deps, orgId, filters);
  const today = Math.floor(deps.now() / DAY_MS);
  const groups = await groupedUsage(deps, orgId, (today - days + 1) * DAY_MS, resolved);
  const [tokens, users] = await Promise.all([
    tokenNames(
      deps,
      orgId,
      groups.map((g) => g.tokenId),
    ),
    userNames(
      deps,
      groups.filter((g) => g.tokenId === null).map((g) => g.userId),
    ),
  ]);
  return buildReport(days, today, groups, tokens, users);
}

/** What each token spent this UTC calendar month (the month budgets count), from the same rollups. */
export async function tokenSpend(deps: Deps, orgId: number): Promise<TokenSpend> {
  const now = deps.now();
  const month = monthKey(now);
  const start = Date.parse(`${month}-01T00:00:00Z`);
  const groups = await groupedUsage(deps, orgId, start, {});
  const spent = new Map<number, number>();
  for (const g of groups) if (g.tokenId !== null) spent.set(g.tokenId, (spent.get(g.tokenId) ?? 0) + g.costMicros);
  const names = await tokenNames(deps, orgId, [...spent.keys()]);
  return {
    month,
    tokens: [...spent].filter(([id]) => names.has(id)).map(([id, micros]) => ({ token: names.get(id)!, spent: microsToDollars(micros) })),
  };
}
