import type { HourlyFigures, ModelAlert, ReliabilityFigures, StatusBand } from "~/platform/models";

/** What a figure reads when there is nothing to compute it from (no requests, no recorded status). */
export const NO_DATA = "—";
export const NO_DATA_LABEL = "no data";

const HOUR = 3_600_000;

/** Shares 0..1 as a percentage with at most one decimal (0.9973 → "99.7%", 1 → "100%"). */
export function formatShare(share: number | null | undefined): string {
  if (share == null || !Number.isFinite(share)) return NO_DATA;
  const pct = Math.round(share * 1000) / 10;
  return `${pct}%`;
}

/** Milliseconds as people read latency: "85 ms", "1.2 s". */
export function formatMs(ms: number | null | undefined): string {
  if (ms == null || !Number.isFinite(ms)) return NO_DATA;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(Math.round(ms / 100) / 10).toFixed(1)} s`;
}

export function formatTokensPerSecond(tps: number | null | undefined): string {
  if (tps == null || !Number.isFinite(tps)) return NO_DATA;
  return `${tps >= 100 ? Math.round(tps) : Math.round(tps * 10) / 10} tok/s`;
}

/** The four figures a model row shows, as text. */
export function figureTexts(figures: ReliabilityFigures | null | undefined, uptime: number | null | undefined) {
  return {
    uptime: formatShare(uptime),
    p50: formatMs(figures?.p50TtftMs),
    tokensPerSecond: formatTokensPerSecond(figures?.tokensPerSecond),
    errorRate: formatShare(figures?.errorRate),
    requests: figures?.requests ?? 0,
  };
}

/** An operator alert as one sentence. */
export function alertText(alert: ModelAlert): string {
  return alert.kind === "errorRate"
    ? `${alert.model}: error rate ${alert.value}% over the last 15 minutes, above its ${alert.threshold}% threshold.`
    : `${alert.model}: p50 time to first token ${formatMs(alert.value)} over the last 15 minutes, above its ${formatMs(alert.threshold)} threshold.`;
}

/** A status band placed on a timeline of [from, to): x and width as fractions 0..1. */
export function placeBands(bands: StatusBand[], from: number, to: number): (StatusBand & { x: number; width: number })[] {
  const span = to - from;
  if (span <= 0) return [];
  return bands
    .map((b) => {
      const start = Math.max(from, b.from);
      const end = Math.min(to, b.to);
      return { ...b, x: (start - from) / span, width: (end - start) / span };
    })
    .filter((b) => b.width > 0);
}

/** Every hour of [from, to), oldest first, with its figures or null when it had no traffic. */
export function hourSlots(hours: HourlyFigures[], from: number, to: number): { hour: number; figures: HourlyFigures | null }[] {
  const byHour = new Map(hours.map((h) => [h.hour, h]));
  const slots: { hour: number; figures: HourlyFigures | null }[] = [];
  for (let hour = from - (from % HOUR); hour < to; hour += HOUR) slots.push({ hour, figures: byHour.get(hour) ?? null });
  return slots;
}

/** A round upper bound for a latency axis (ms). */
export function latencyScale(maxMs: number): number {
  return [100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 60_000].find((bound) => maxMs <= bound) ?? Math.ceil(maxMs / 60_000) * 60_000;
}

/** The model page's path; a name may hold slashes (`org/model`), kept as path segments. */
export function modelPagePath(name: string): string {
  return `/models/${name.split("/").map(encodeURIComponent).join("/")}`;
}
