import type { ReactNode } from "react";
import { formatDateTime } from "~/lib/datetime";
import type { HourlyFigures, StatusBand } from "~/platform/models";
import { Figure } from "./Figure";
import { formatMs, formatShare, formatTokensPerSecond, hourSlots, latencyScale, placeBands } from "./reliability";
import type { ModelStatus } from "./status";
import { MODEL_STATUSES } from "./status";

/** Band colours: the status dot's, as SVG fills. */
const BAND_FILL: Record<ModelStatus, string> = {
  online: "fill-success",
  starting: "fill-warning",
  standby: "fill-info",
  maintenance: "fill-secondary",
  offline: "fill-error",
  unknown: "fill-base-content/30",
};
const SWATCH: Record<ModelStatus, string> = {
  online: "bg-success",
  starting: "bg-warning",
  standby: "bg-info",
  maintenance: "bg-secondary",
  offline: "bg-error",
  unknown: "border border-base-300 bg-base-200",
};

const WIDTH = 1000;
const HOUR = 3_600_000;

interface TimelineProps {
  from: number;
  to: number;
  bands: StatusBand[];
  hours: HourlyFigures[];
  timeZone: string;
  /** Whose requests the hourly figures are of ("your organization", "all organizations"). */
  whose: string;
}

/** One chart: an SVG image named by its title and described in words, under a visible label. */
function Chart({
  id,
  label,
  title,
  desc,
  height,
  children,
}: {
  id: string;
  label: ReactNode;
  title: string;
  desc: string;
  height: number;
  children: ReactNode;
}) {
  return (
    <figure className="flex flex-col gap-1">
      <figcaption className="text-left text-sm font-medium">{label}</figcaption>
      <svg
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-desc`}
        viewBox={`0 0 ${WIDTH} ${height}`}
        preserveAspectRatio="none"
        className="h-auto w-full rounded bg-base-200"
        style={{ aspectRatio: `${WIDTH} / ${height}` }}
        data-testid={id}
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{desc}</desc>
        {children}
      </svg>
    </figure>
  );
}

/**
 * The last days of a model (issue 17): status bands, then hourly p50 time to first token and error
 * rate, as three small SVG charts drawn on the server (no chart library, nothing to load), each
 * described in words; the tables below carry every figure for those who can't see the charts.
 */
export function Timeline({ from, to, bands, hours, timeZone, whose }: TimelineProps) {
  const placed = placeBands(bands, from, to);
  const slots = hourSlots(hours, from, to);
  const span = to - from;
  const slotWidth = (HOUR / span) * WIDTH;
  const xOf = (time: number) => ((Math.max(time, from) - from) / span) * WIDTH;
  const withTraffic = slots.filter((s) => s.figures && s.figures.requests > 0);
  const maxP50 = Math.max(0, ...withTraffic.map((s) => s.figures!.p50TtftMs ?? 0));
  const scale = latencyScale(maxP50);
  const worstError = withTraffic.reduce<HourlyFigures | null>((worst, s) => ((s.figures!.errorRate ?? 0) > (worst?.errorRate ?? -1) ? s.figures : worst), null);
  const slowest = withTraffic.reduce<HourlyFigures | null>((worst, s) => ((s.figures!.p50TtftMs ?? 0) > (worst?.p50TtftMs ?? -1) ? s.figures : worst), null);
  const when = (time: number) => formatDateTime(time, timeZone);
  const shareOf = (status: ModelStatus) => placed.filter((b) => b.status === status).reduce((sum, b) => sum + b.width, 0);
  const statusSummary =
    placed.length === 0
      ? "No status was recorded in this period."
      : MODEL_STATUSES.filter((s) => shareOf(s) > 0)
          .map((s) => `${s} ${formatShare(shareOf(s))} of the period`)
          .join(", ") + `; ${placed.length} band${placed.length === 1 ? "" : "s"}, listed in the table below.`;
  const trafficSummary =
    withTraffic.length === 0
      ? `No requests from ${whose} in this period.`
      : `${withTraffic.length} hour${withTraffic.length === 1 ? "" : "s"} with requests from ${whose}.`;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex justify-between text-xs text-base-content/70" aria-hidden>
        <span>{when(from)}</span>
        <span>{when(to)}</span>
      </div>
      <Chart id="timeline-status" label="Status" title={`Status from ${when(from)} to ${when(to)}`} desc={statusSummary} height={40}>
        {placed.map((b) => (
          <rect key={b.from} x={b.x * WIDTH} y={0} width={Math.max(b.width * WIDTH, 1)} height={40} className={BAND_FILL[b.status]}>
            <title>{`${b.status}: ${when(b.from)} to ${when(b.to)}`}</title>
          </rect>
        ))}
      </Chart>
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs" aria-label="Status colours">
        {MODEL_STATUSES.map((s) => (
          <li key={s} className="flex items-center gap-1 capitalize">
            <span className={`inline-block size-2.5 rounded-sm ${SWATCH[s]}`} aria-hidden />
            {s === "unknown" ? "not recorded" : s}
          </li>
        ))}
      </ul>
      <Chart
        id="timeline-latency"
        label={`p50 time to first token per hour (scale 0 to ${formatMs(scale)})`}
        title={`Hourly p50 time to first token of requests from ${whose}`}
        desc={`${trafficSummary}${slowest ? ` Slowest hour: ${when(slowest.hour)} at ${formatMs(slowest.p50TtftMs)}.` : ""}`}
        height={120}
      >
        {withTraffic.map(({ hour, figures }) => {
          const h = Math.max(2, ((figures!.p50TtftMs ?? 0) / scale) * 120);
          return figures!.p50TtftMs === null ? null : (
            <rect key={hour} x={xOf(hour)} y={120 - h} width={Math.max(slotWidth - 1, 1)} height={h} className="fill-primary">
              <title>{`${when(hour)}: ${formatMs(figures!.p50TtftMs)}`}</title>
            </rect>
          );
        })}
      </Chart>
      <Chart
        id="timeline-errors"
        label="Error rate per hour (scale 0 to 100%)"
        title={`Hourly error rate of requests from ${whose}`}
        desc={`${trafficSummary}${worstError && (worstError.errorRate ?? 0) > 0 ? ` Worst hour: ${when(worstError.hour)} at ${formatShare(worstError.errorRate)}.` : withTraffic.length > 0 ? " No errors." : ""}`}
        height={60}
      >
        {withTraffic.map(({ hour, figures }) =>
          (figures!.errorRate ?? 0) > 0 ? (
            <rect
              key={hour}
              x={xOf(hour)}
              y={60 - figures!.errorRate! * 60}
              width={Math.max(slotWidth - 1, 1)}
              height={figures!.errorRate! * 60}
              className="fill-error"
            >
              <title>{`${when(hour)}: ${formatShare(figures!.errorRate)}`}</title>
            </rect>
          ) : null,
        )}
      </Chart>
    </div>
  );
}

/** The same data as tables: what the charts show, readable without sight or scripts. */
export function TimelineTables({ bands, hours, timeZone }: { bands: StatusBand[]; hours: HourlyFigures[]; timeZone: string }) {
  const when = (time: number) => formatDateTime(time, timeZone);
  const withTraffic = hours.filter((h) => h.requests > 0).reverse();
  return (
    <div className="grid gap-6 xl:grid-cols-2">
      <div className="min-w-0">
        <h3 id="status-table-title" className="mb-2 font-medium">
          Status changes
        </h3>
        <div className="table-region" role="region" aria-labelledby="status-table-title" tabIndex={0}>
          <table className="table table-sm">
            <thead>
              <tr>
                <th>Status</th>
                <th>From</th>
                <th>To</th>
              </tr>
            </thead>
            <tbody>
              {bands.length === 0 ? (
                <tr>
                  <td colSpan={3}>No status was recorded in this period.</td>
                </tr>
              ) : (
                bands.map((b) => (
                  <tr key={b.from}>
                    <td className="capitalize">{b.status}</td>
                    <td className="whitespace-nowrap">{when(b.from)}</td>
                    <td className="whitespace-nowrap">{when(b.to)}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>
      <div className="min-w-0">
        <h3 id="hours-table-title" className="mb-2 font-medium">
          Hourly figures
        </h3>
        <div className="max-h-96 overflow-y-auto" role="region" aria-labelledby="hours-table-title" tabIndex={0}>
          <table className="table table-sm table-pin-rows">
            <thead>
              <tr>
                <th>Hour</th>
                <th className="text-right">Requests</th>
                <th className="text-right">p50 time to first token</th>
                <th className="text-right">Tokens/s</th>
                <th className="text-right">Error rate</th>
              </tr>
            </thead>
            <tbody>
              {withTraffic.length === 0 ? (
                <tr>
                  <td colSpan={5}>No requests in this period.</td>
                </tr>
              ) : (
                withTraffic.map((h) => (
                  <tr key={h.hour}>
                    <td className="whitespace-nowrap">{when(h.hour)}</td>
                    <td className="text-right tabular-nums">{h.requests}</td>
                    <td className="text-right tabular-nums">
                      <Figure text={formatMs(h.p50TtftMs)} />
                    </td>
                    <td className="text-right tabular-nums">
                      <Figure text={formatTokensPerSecond(h.tokensPerSecond)} />
                    </td>
                    <td className="text-right tabular-nums">
                      <Figure text={formatShare(h.errorRate)} />
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>
    </div>
  );
}
