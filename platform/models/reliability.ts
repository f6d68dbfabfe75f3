import { sql } from "kysely";
import type { HourlyFigures, ModelAlert, ModelHistory, ModelMetrics, ReliabilityFigures, SystemModelMetrics } from "@contract/models";
import { ALERT_WINDOW_MINUTES } from "@contract/models";
import type { Deps } from "../context";
import { PlatformError } from "../http/errors";
import { statusBands, uptimeOf, uptimes } from "./history";
import { flushMetrics, STAT_COLUMNS, TTFT_BOUNDS } from "./metrics";
import { findModel, listModels } from "./service";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type Sums = Record<(typeof STAT_COLUMNS)[number], number>;

/** p50 of the summed histogram, linearly interpolated inside its bucket (the open last bucket reads as its lower bound). */
export function p50Of(buckets: number[]): number | null {
  const total = buckets.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const half = total / 2;
  let seen = 0;
  for (const [i, count] of buckets.entries()) {
    if (count > 0 && seen + count >= half) {
      const lower = i === 0 ? 0 : TTFT_BOUNDS[i - 1];
      const upper = TTFT_BOUNDS[i];
      if (!Number.isFinite(upper)) return lower;
      return Math.round(lower + ((upper - lower) * (half - seen)) / count);
    }
    seen += count;
  }
  return null;
}

export function figuresOf(s: Sums): ReliabilityFigures {
  const requests = Number(s.requests ?? 0);
  const errors = Number(s.upstream_errors ?? 0) + Number(s.rate_limited ?? 0) + Number(s.unavailable ?? 0);
  const generation = Number(s.generation_ms ?? 0);
  return {
    requests,
    errors,
    aborted: Number(s.aborted ?? 0),
    errorRate: requests > 0 ? errors / requests : null,
    p50TtftMs: p50Of(TTFT_BOUNDS.map((_, i) => Number(s[`ttft_b${i}` as keyof Sums] ?? 0))),
    tokensPerSecond: generation > 0 ? Math.round((Number(s.output_tokens ?? 0) / generation) * 1000 * 10) / 10 : null,
  };
}

const EMPTY = figuresOf({} as Sums);
/** A model listed after the uptimes were read (added meanwhile): nothing known yet. */
const NO_UPTIME = { uptime24h: null, uptime7d: null };

/** Summed figures per model (and per hour when asked) since `from`, for one organization or all. */
async function sums(deps: Deps, options: { from: number; orgId?: number; model?: string; hourly?: boolean }) {
  let query = deps.db
    .selectFrom("model_minute_stats")
    .select("model")
    .select(STAT_COLUMNS.map((c) => sql<number>`sum(${sql.ref(c)})`.as(c)))
    .where("minute", ">=", options.from - (options.from % MINUTE))
    .groupBy("model");
  if (options.orgId !== undefined) query = query.where("org_id", "=", options.orgId);
  if (options.model !== undefined) query = query.where("model", "=", options.model);
  if (options.hourly) {
    // A literal, not a parameter: PostgreSQL matches the select and group-by expressions by text, and two
    // parameters ($n, $m) of the same value are different expressions to it ("must appear in GROUP BY").
    const hour = sql<number>`(minute - (minute % ${sql.lit(HOUR)}))`;
    const rows = await query.select(hour.as("hour")).groupBy(hour).orderBy(hour).execute();
    return rows.map((r) => ({ model: r.model, hour: Number((r as { hour: number }).hour), sums: r as unknown as Sums }));
  }
  const rows = await query.execute();
  return rows.map((r) => ({ model: r.model, hour: 0, sums: r as unknown as Sums }));
}

function byModel(rows: { model: string; sums: Sums }[]): Map<string, ReliabilityFigures> {
  return new Map(rows.map((r) => [r.model, figuresOf(r.sums)]));
}

/** GET /models/metrics: the organization's last hour per model, the platform's where published, and uptime. */
export async function organizationMetrics(deps: Deps, orgId: number): Promise<ModelMetrics[]> {
  await flushMetrics(deps.db);
  const from = deps.now() - HOUR;
  const [models, own, all, up] = await Promise.all([listModels(deps), sums(deps, { from, orgId }), sums(deps, { from }), uptimes(deps, DAY)]);
  const ownBy = byModel(own);
  const allBy = byModel(all);
  return models.map((m) => ({
    name: m.name,
    lastHour: ownBy.get(m.name) ?? EMPTY,
    platformLastHour: m.publish_metrics ? (allBy.get(m.name) ?? EMPTY) : null,
    ...(up.get(m.name) ?? NO_UPTIME),
  }));
}

/** GET /models/{name}/history: status bands and hourly figures of the last `days` days. */
export async function modelHistory(deps: Deps, orgId: number, name: string, days: number): Promise<ModelHistory> {
  const model = await findModel(deps, name);
  if (!model) throw new PlatformError(404, "Model not found");
  await flushMetrics(deps.db);
  const to = deps.now();
  const from = to - days * DAY;
  const hourly = (rows: { hour: number; sums: Sums }[]): HourlyFigures[] => rows.map((r) => ({ hour: r.hour, ...figuresOf(r.sums) }));
  const bands = await statusBands(deps, name, from, to);
  return {
    name,
    days,
    from,
    to,
    uptime: uptimeOf(bands),
    bands,
    hours: hourly(await sums(deps, { from, orgId, model: name, hourly: true })),
    platformHours: model.publish_metrics ? hourly(await sums(deps, { from, model: name, hourly: true })) : null,
  };
}

/** GET /system/models/metrics: every organization's traffic, and the models past their thresholds over the last 15 minutes. */
export async function systemMetrics(deps: Deps): Promise<SystemModelMetrics> {
  await flushMetrics(deps.db);
  const now = deps.now();
  const [models, hour, recent, up] = await Promise.all([
    listModels(deps),
    sums(deps, { from: now - HOUR }),
    sums(deps, { from: now - ALERT_WINDOW_MINUTES * MINUTE }),
    uptimes(deps, DAY),
  ]);
  const hourBy = byModel(hour);
  const recentBy = byModel(recent);
  const alerts: ModelAlert[] = [];
  const data = models.map((m) => {
    const last15m = recentBy.get(m.name) ?? EMPTY;
    if (m.alert_error_rate_pct !== null && last15m.errorRate !== null && last15m.errorRate * 100 > m.alert_error_rate_pct) {
      alerts.push({ model: m.name, kind: "errorRate", value: Math.round(last15m.errorRate * 1000) / 10, threshold: m.alert_error_rate_pct });
    }
    if (m.alert_ttft_ms !== null && last15m.p50TtftMs !== null && last15m.p50TtftMs > m.alert_ttft_ms) {
      alerts.push({ model: m.name, kind: "latency", value: last15m.p50TtftMs, threshold: m.alert_ttft_ms });
    }
    return {
      name: m.name,
      lastHour: hourBy.get(m.name) ?? EMPTY,
      last15m,
      ...(up.get(m.name) ?? NO_UPTIME),
    };
  });
  return { data, alerts };
}
