import { Link } from "@remix-run/react";
import { BarChart3, Coins, Hash, MessageSquare, TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { Alert } from "~/components/Alert";
import { TableRegion } from "~/components/TableRegion";
import type { MemberUsage, ModelUsage, SourceUsage, UsageFigures } from "~/platform/usage";
import type { ChartMetric, UsagePeriod } from "./format";
import type { UsageFilterValues } from "./format";
import { formatMoney } from "@contract/money";
import { EMPTY_USAGE, formatCount, memberLabel, sourceLabel, totalTokens, USAGE_PERIODS, usageSearch } from "./format";

/** The period tabs: plain links (`?days=`), so they work without JavaScript and can be bookmarked. */
export function PeriodTabs({ days, metric, filters = {} }: { days: UsagePeriod; metric: ChartMetric; filters?: UsageFilterValues }) {
  return (
    <nav aria-label="Period" className="tabs tabs-box w-fit">
      {USAGE_PERIODS.map((d) => (
        <Link
          key={d}
          to={usageSearch(d, metric, filters)}
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
      <Stat icon={<Coins className="size-7" aria-hidden />} title="Cost" value={formatMoney(totals.cost)} desc="At each model's rate card" />
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
    <Alert kind="error">
      <TriangleAlert className="size-5" aria-hidden />
      <span>{message}</span>
      <Link to={retryTo} className="btn btn-sm" reloadDocument>
        Try again
      </Link>
    </Alert>
  );
}

export function UsageByModel({ models, totals }: { models: ModelUsage[]; totals: UsageFigures }) {
  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body">
        <h2 className="card-title">By model</h2>
        <TableRegion label="Usage by model table">
          <table className="table">
            <caption className="sr-only">Usage per model</caption>
            <thead>
              <tr>
                <th scope="col">Model</th>
                <th scope="col" className="text-right">
                  Requests
                </th>
                <th scope="col" className="text-right">
                  Input tokens
                </th>
                <th scope="col" className="text-right">
                  Output tokens
                </th>
                <th scope="col" className="text-right">
                  Reasoning tokens
                </th>
                <th scope="col" className="text-right">
                  Cost
                </th>
              </tr>
            </thead>
            <tbody>
              {models.map((m) => (
                <tr key={m.model} className="hover:bg-base-200/50">
                  <th scope="row" className="font-mono text-sm font-normal">
                    {m.model}
                  </th>
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
        </TableRegion>
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
      <td className="text-right tabular-nums">{formatMoney(figures.cost)}</td>
    </>
  );
}

export function SourceTable({ sources, more = 0 }: { sources: SourceUsage[]; more?: number }) {
  return (
    <BreakdownTable
      more={more}
      moreWhat={more === 1 ? "token" : "tokens"}
      title="Console and API tokens"
      caption="Usage per source"
      rowHeader="Source"
      rows={sources.map((s) => ({
        key: `${s.kind}:${s.token ?? ""}`,
        label:
          s.kind === "api" && s.token ? (
            <span>
              API token <span className="font-mono text-sm">{s.token}</span>
            </span>
          ) : (
            sourceLabel(s)
          ),
        figures: s,
      }))}
    />
  );
}

/** The console's chat per member: who used what (issue 16); `former`: who of them has left (decision 0140). */
export function UsageByMember({ members, more = 0, former = [] }: { members: MemberUsage[]; more?: number; former?: number[] }) {
  const left = new Set(former);
  return (
    <BreakdownTable
      more={more}
      moreWhat={more === 1 ? "member" : "members"}
      title="Console chat by member"
      caption="Console chat usage per member"
      rowHeader="Member"
      rows={members.map((m) => ({ key: String(m.member), label: memberLabel(m, left.has(m.member)), figures: m }))}
    />
  );
}

/** Requests, tokens and cost per row of one breakdown (a source, a member). */
function BreakdownTable({
  title,
  caption,
  rowHeader,
  rows,
  more,
  moreWhat,
}: {
  title: string;
  caption: string;
  rowHeader: string;
  rows: { key: string; label: ReactNode; figures: UsageFigures }[];
  /** Rows left out, the least busy ones, and what they are. */
  more: number;
  moreWhat: string;
}) {
  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body">
        <h2 className="card-title">{title}</h2>
        <TableRegion label={`${title} table`}>
          <table className="table">
            <caption className="sr-only">{caption}</caption>
            <thead>
              <tr>
                <th scope="col">{rowHeader}</th>
                {["Requests", "Tokens", "Cost"].map((h) => (
                  <th key={h} scope="col" className="text-right">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map(({ key, label, figures }) => (
                <tr key={key} className="hover:bg-base-200/50">
                  <th scope="row" className="font-normal">
                    {label}
                  </th>
                  <td className="text-right tabular-nums">{formatCount(figures.requests)}</td>
                  <td className="text-right tabular-nums">{formatCount(totalTokens(figures))}</td>
                  <td className="text-right tabular-nums">{formatMoney(figures.cost)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
        {more > 0 ? (
          <p className="text-sm text-base-content/70">
            The busiest {rows.length} are shown; {more.toLocaleString("en-US")} more {moreWhat} used less, and are in the CSV export.
          </p>
        ) : null}
        {more > 0 ? (
          <p className="text-sm text-base-content/70">
            The busiest {rows.length} are shown; {more.toLocaleString("en-US")} more {moreWhat} used less, and are in the CSV export.
          </p>
        ) : null}
      </div>
    </div>
  );
}
