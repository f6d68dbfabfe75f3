import { sql } from "kysely";
import type { Deps } from "../context";
import { microsToDollars } from "../billing/money";
import type { UsageFigures, UsagePeriod, UsageReport } from "@contract/usage";

export const DAY_MS = 86_400_000;

/** One grouped row of `chat_usage`: a day, a model and a caller kind. */
export interface UsageGroup {
  day: number;
  model: string;
  tokenId: number | null;
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
export function buildReport(days: UsagePeriod, today: number, groups: UsageGroup[], tokenNames: Map<number, string>): UsageReport {
  const first = today - days + 1;
  const totals = zero();
  const daily = Array.from({ length: days }, zero);
  const models = new Map<string, Sum>();
  const sources = new Map<number | null, Sum>([[null, zero()]]);
  for (const g of groups) {
    if (g.day < first || g.day > today) continue;
    add(totals, g);
    add(daily[g.day - first], g);
    if (!models.has(g.model)) models.set(g.model, zero());
    add(models.get(g.model)!, g);
    if (!sources.has(g.tokenId)) sources.set(g.tokenId, zero());
    add(sources.get(g.tokenId)!, g);
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
  };
}

/** The organization's chat usage over the last `days` UTC days (today included). */
export async function usageReport(deps: Deps, orgId: number, days: UsagePeriod): Promise<UsageReport> {
  const today = Math.floor(deps.now() / DAY_MS);
  const since = (today - days + 1) * DAY_MS;
  const day = sql<number>`created_at / ${sql.lit(DAY_MS)}`;
  const total = (column: string) => sql<number>`cast(sum(${sql.ref(column)}) as bigint)`;
  const rows = await deps.db
    .selectFrom("chat_usage")
    .select([
      day.as("day"),
      "model",
      "token_id",
      sql<number>`count(*)`.as("requests"),
      total("prompt_tokens").as("prompt_tokens"),
      total("completion_tokens").as("completion_tokens"),
      total("reasoning_tokens").as("reasoning_tokens"),
      total("cost_micros").as("cost_micros"),
    ])
    .where("org_id", "=", orgId)
    .where("created_at", ">=", since)
    .groupBy([day, "model", "token_id"])
    .execute();

  const tokenIds = [...new Set(rows.map((r) => r.token_id).filter((id): id is number => id !== null))];
  const tokens = tokenIds.length
    ? await deps.db.selectFrom("api_tokens").select(["id", "public_id"]).where("org_id", "=", orgId).where("id", "in", tokenIds).execute()
    : [];

  const groups: UsageGroup[] = rows.map((r) => ({
    day: Number(r.day),
    model: r.model,
    tokenId: r.token_id,
    requests: Number(r.requests),
    promptTokens: Number(r.prompt_tokens),
    completionTokens: Number(r.completion_tokens),
    reasoningTokens: Number(r.reasoning_tokens),
    costMicros: Number(r.cost_micros),
  }));
  return buildReport(days, today, groups, new Map(tokens.map((t) => [t.id, t.public_id])));
}
