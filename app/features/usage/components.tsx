import { Link } from "@remix-run/react";
import { BarChart3, Coins, Hash, MessageSquare, TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import type { DailyUsage, ModelUsage, SourceUsage, UsageFigures } from "~/platform/usage";
import type { ChartMetric, UsagePeriod } from "./format";
import {
  barHeights,
  CHART_METRICS,
  EMPTY_USAGE,
  formatCompact,
  formatCost,
  formatCount,
  formatDay,
  formatMetric,
  labelledDays,
  metricValue,
  sourceLabel,
  totalTokens,
  USAGE_PERIODS,
  usageSearch,
} from "./format";

/** The period tabs: plain links (`?days=`), so they work without JavaScript and can be bookmarked. */
export function PeriodTabs({ days, metric }: { days: UsagePeriod; metric: ChartMetric }) {
  return (
    <nav aria-label="Period" className="tabs tabs-box w-fit">
      {USAGE_PERIODS.map((d) => (
        <Link
          key={d}
          to={usageSearch(d, metric)}
          className={`tab ${d === days ? "tab-active" : ""}`}
          aria-current={d === days ? "page" : undefined}
          preventScrollReset
        >
          {d} days
        </Link>
      ))}
    </nav>
  );
}

function Stat({ icon, title, value, desc }: { icon: ReactNode; title: string; value: string; desc: string }) {
  return (
    <div className="stat" role="group" aria-label={title}>
      <div className="stat-figure text-primary">{icon}</div>
      <div className="stat-title">{title}</div>
      <div className="stat-value tabular-nums">{value}</div>
      <div className="stat-desc">{desc}</div>
    </div>
  );
}

export function UsageStats({ totals }: { totals: UsageFigures }) {
  return (
    <section aria-label="Totals" className="stats stats-vertical w-full bg-base-100 shadow-sm md:stats-horizontal">
      <Stat icon={<Hash className="size-7" aria-hidden />} title="Requests" value={formatCount(totals.requests)} desc="Chat completions, console and API" />
      <Stat
        icon={<BarChart3 className="size-7" aria-hidden />}
        title="Tokens"
        value={formatCount(totalTokens(totals))}
        desc={`${formatCount(totals.promptTokens)} input · ${formatCount(totals.completionTokens)} output (${formatCount(totals.reasoningTokens)} reasoning)`}
      />
      <Stat icon={<Coins className="size-7" aria-hidden />} title="Cost" value={formatCost(totals.cost)} desc="At each model's rate card" />
    </section>
  );
}

export function EmptyUsage() {
  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body items-center py-12 text-center">
        <BarChart3 className="size-10 text-base-content/30" aria-hidden />
        <p role="status" className="text-lg font-medium">
          {EMPTY_USAGE}
        </p>
        <p className="text-sm text-base-content/70">Chats in the console and calls with your API tokens show up here.</p>
        <Link to="/chat" className="btn btn-primary btn-sm mt-2">
          <MessageSquare className="size-4" aria-hidden />
          Open chat
        </Link>
      </div>
    </div>
  );
}

export function UsageError({ message, retryTo }: { message: string; retryTo: string }) {
  return (
    <div role="alert" className="alert alert-error">
      <TriangleAlert className="size-5" aria-hidden />
      <span>{message}</span>
      <Link to={retryTo} className="btn btn-sm" reloadDocument>
        Try again
      </Link>
    </div>
  );
}

const METRIC_LABEL: Record<ChartMetric, string> = { tokens: "Tokens", cost: "Cost" };

/** Daily bars in plain CSS; each day is also a list item a screen reader reads, and a table sits behind a disclosure. */
export function DailyChart({ daily, days, metric }: { daily: DailyUsage[]; days: UsagePeriod; metric: ChartMetric }) {
  const values = daily.map((d) => metricValue(d, metric));
  const heights = barHeights(values);
  const labelled = labelledDays(daily.length);
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
              <Link key={m} to={usageSearch(days, m)} className={`tab ${m === metric ? "tab-active" : ""}`} aria-current={m === metric ? "page" : undefined} preventScrollReset>
                {METRIC_LABEL[m]}
              </Link>
            ))}
          </nav>
        </div>
        <div className="flex gap-2">
          <div className="flex w-14 shrink-0 flex-col justify-between text-right text-xs text-base-content/60 tabular-nums" aria-hidden>
            <span>{metric === "cost" ? formatCost(max) : formatCompact(max)}</span>
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
                <li key={d.date} className="tooltip tooltip-top flex h-full flex-1 items-end" data-tip={`${formatDay(d.date)}: ${formatMetric(values[i], metric)}`}>
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
                <span key={d.date} className={`flex-1 whitespace-nowrap ${days > 7 && i === daily.length - 1 ? "text-right" : "text-center"}`}>
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
                  <th scope="col" className="text-right">Requests</th>
                  <th scope="col" className="text-right">Tokens</th>
                  <th scope="col" className="text-right">Cost</th>
                </tr>
              </thead>
              <tbody>
                {daily.map((d) => (
                  <tr key={d.date}>
                    <th scope="row" className="font-normal">{formatDay(d.date, true)}</th>
                    <td className="text-right tabular-nums">{formatCount(d.requests)}</td>
                    <td className="text-right tabular-nums">{formatCount(totalTokens(d))}</td>
                    <td className="text-right tabular-nums">{formatCost(d.cost)}</td>
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

export function ModelTable({ models, totals }: { models: ModelUsage[]; totals: UsageFigures }) {
  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body">
        <h2 className="card-title">By model</h2>
        <div className="overflow-x-auto">
          <table className="table">
            <caption className="sr-only">Usage per model</caption>
            <thead>
              <tr>
                <th scope="col">Model</th>
                <th scope="col" className="text-right">Requests</th>
                <th scope="col" className="text-right">Input tokens</th>
                <th scope="col" className="text-right">Output tokens</th>
                <th scope="col" className="text-right">Reasoning tokens</th>
                <th scope="col" className="text-right">Cost</th>
              </tr>
            </thead>
            <tbody>
              {models.map((m) => (
                <tr key={m.model} className="hover:bg-base-200/50">
                  <th scope="row" className="font-mono text-sm font-normal">{m.model}</th>
                  <FigureCells figures={m} />
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Total</th>
                <FigureCells figures={totals} />
              </tr>
            </tfoot>
          </table>
        </div>
      </div>
    </div>
  );
}

function FigureCells({ figures }: { figures: UsageFigures }) {
  return (
    <>
      <td className="text-right tabular-nums">{formatCount(figures.requests)}</td>
      <td className="text-right tabular-nums">{formatCount(figures.promptTokens)}</td>
      <td className="text-right tabular-nums">{formatCount(figures.completionTokens)}</td>
      <td className="text-right tabular-nums">{formatCount(figures.reasoningTokens)}</td>
      <td className="text-right tabular-nums">{formatCost(figures.cost)}</td>
    </>
  );
}

export function SourceTable({ sources }: { sources: SourceUsage[] }) {
  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body">
        <h2 className="card-title">Console and API tokens</h2>
        <div className="overflow-x-auto">
          <table className="table">
            <caption className="sr-only">Usage per source</caption>
            <thead>
              <tr>
                <th scope="col">Source</th>
                <th scope="col" className="text-right">Requests</th>
                <th scope="col" className="text-right">Tokens</th>
                <th scope="col" className="text-right">Cost</th>
              </tr>
            </thead>
            <tbody>
              {sources.map((s) => (
                <tr key={`${s.kind}:${s.token ?? ""}`} className="hover:bg-base-200/50">
                  <th scope="row" className="font-normal">
                    {s.kind === "api" && s.token ? (
                      <span>
                        API token <span className="font-mono text-sm">{s.token}</span>
                      </span>
                    ) : (
                      sourceLabel(s)
                    )}
                  </th>
                  <td className="text-right tabular-nums">{formatCount(s.requests)}</td>
                  <td className="text-right tabular-nums">{formatCount(totalTokens(s))}</td>
                  <td className="text-right tabular-nums">{formatCost(s.cost)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </div>
  );
}
