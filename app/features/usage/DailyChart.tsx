import type { CSSProperties } from "react";
import { Link } from "@remix-run/react";
import { formatMoney } from "@contract/money";
import type { DailyUsage } from "~/platform/usage";
import type { ChartMetric, UsageFilterValues, UsagePeriod } from "./format";
import { barHeights, CHART_METRICS, formatCompact, formatCount, formatDay, formatMetric, labelledDays, metricValue, totalTokens, usageSearch } from "./format";

const METRIC_LABEL: Record<ChartMetric, string> = { tokens: "Tokens", cost: "Cost" };

/**
 * Daily bars in plain CSS; each day is also a list item a screen reader reads (its hover tooltip is
 * hidden from it), and a table sits behind a disclosure.
 */
export function DailyChart({
  daily,
  days,
  metric,
  filters = {},
}: {
  daily: DailyUsage[];
  days: UsagePeriod;
  metric: ChartMetric;
  filters?: UsageFilterValues;
}) {
  const values = daily.map((d) => metricValue(d, metric));
  const heights = barHeights(values);
  const labelled = labelledDays(daily.length);
  const labelledOnPhones = labelledDays(daily.length, 2);
  const max = Math.max(0, ...values);
  const first = daily[0]?.date ?? "";
  const last = daily.at(-1)?.date ?? "";
  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body gap-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div>
            <h2 className="card-title">Daily {METRIC_LABEL[metric].toLowerCase()}</h2>
            <p className="text-sm text-base-content/70">
              {formatDay(first, true)} – {formatDay(last, true)} (UTC)
            </p>
          </div>
          <nav aria-label="Chart" className="tabs tabs-border">
            {CHART_METRICS.map((m) => (
              <Link
                key={m}
                to={usageSearch(days, m, filters)}
                className={`tab ${m === metric ? "tab-active" : ""}`}
                aria-current={m === metric ? "page" : undefined}
                preventScrollReset
              >
                {METRIC_LABEL[m]}
              </Link>
            ))}
          </nav>
        </div>
        <div className="flex gap-2">
          <div className="flex w-14 shrink-0 flex-col justify-between text-right text-xs text-base-content/60 tabular-nums" aria-hidden>
            <span>{metric === "cost" ? formatMoney(max) : formatCompact(max)}</span>
            <span>{metric === "cost" ? "$0.00" : "0"}</span>
          </div>
          <div className="relative min-w-0 flex-1">
            {max === 0 && (
              <p className="absolute inset-x-0 top-16 text-center text-sm text-base-content/60">
                {metric === "cost" ? "Every day in this period cost $0.00." : "No tokens in this period."}
              </p>
            )}
            <ol
              aria-label={`Daily ${METRIC_LABEL[metric].toLowerCase()}, ${formatDay(first, true)} to ${formatDay(last, true)} (UTC)`}
              className={`flex h-48 items-end border-b border-l border-base-300 ${days > 30 ? "gap-px" : "gap-1"}`}
            >
              {daily.map((d, i) => (
                <li key={d.date} className="tooltip tooltip-top flex h-full flex-1 items-end" style={tooltipAlong(i, daily.length)}>
                  {/* The hover tooltip is for the eye only: the sr-only line says the same, and more, once. */}
                  <span className="tooltip-content" aria-hidden>{`${formatDay(d.date)}: ${formatMetric(values[i], metric)}`}</span>
                  <span className="sr-only">{`${formatDay(d.date, true)}: ${formatMetric(values[i], metric)}, ${formatCount(d.requests)} ${d.requests === 1 ? "request" : "requests"}`}</span>
                  <div
                    aria-hidden
                    data-testid="usage-bar"
                    className={`mx-auto w-full max-w-12 rounded-t-sm ${heights[i] > 0 ? "bg-primary" : "bg-transparent"}`}
                    style={{ height: `${heights[i]}%` }}
                  />
                </li>
              ))}
            </ol>
            <div className="mt-1 flex text-xs text-base-content/60" aria-hidden>
              {daily.map((d, i) => (
                <span
                  key={d.date}
                  // Flex alignment, not text-align: a date wider than its day's slot then overflows on both sides
                  // (the last day's on its left) rather than past the card's right edge, scrolling the page.
                  className={`flex min-w-0 flex-1 whitespace-nowrap ${i === daily.length - 1 ? "justify-end" : "justify-center"} ${labelledOnPhones.has(i) ? "" : "max-sm:invisible"}`}
                >
                  {labelled.has(i) ? formatDay(d.date) : ""}
                </span>
              ))}
            </div>
          </div>
        </div>
        <details className="collapse-arrow collapse border border-base-300">
          <summary className="collapse-title text-sm font-medium">Daily figures as a table</summary>
          <div className="collapse-content overflow-x-auto">
            <table className="table table-sm">
              <caption className="sr-only">Usage per UTC day</caption>
              <thead>
                <tr>
                  <th scope="col">Day (UTC)</th>
                  <th scope="col" className="text-right">
                    Requests
                  </th>
                  <th scope="col" className="text-right">
                    Tokens
                  </th>
                  <th scope="col" className="text-right">
                    Cost
                  </th>
                </tr>
              </thead>
              <tbody>
                {daily.map((d) => (
                  <tr key={d.date}>
                    <th scope="row" className="font-normal">
                      {formatDay(d.date, true)}
                    </th>
                    <td className="text-right tabular-nums">{formatCount(d.requests)}</td>
                    <td className="text-right tabular-nums">{formatCount(totalTokens(d))}</td>
                    <td className="text-right tabular-nums">{formatMoney(d.cost)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      </div>
    </div>
  );
}

/**
 * Where a bar's tooltip lies along the chart: centred over it in the middle third, starting at it in the
 * first and ending at it in the last. Centred over the last days, the tooltips (laid out even while
 * hidden) reached past the card, and the whole page scrolled sideways by them (26 px on a phone).
 */
function tooltipAlong(index: number, count: number): CSSProperties {
  const shift = index < count / 3 ? "0%" : index >= (count * 2) / 3 ? "-100%" : "-50%";
  return { "--tt-trans": shift } as CSSProperties;
}
