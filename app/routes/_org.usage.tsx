import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData, useNavigation } from "@remix-run/react";
import { Alert } from "~/components/Alert";
import { EmptyUsage, UsageByMember, UsageByModel, PeriodTabs, SourceTable, UsageError, UsageStats } from "~/features/usage/components";
import { DailyChart } from "~/features/usage/DailyChart";
import { filtersFrom, hasFilters, MEMBER_CHOICES, memberSearchFrom, metricFrom, periodFrom, usageSearch } from "~/features/usage/format";
import type { ChartMetric, UsageFilterValues, UsagePeriod } from "~/features/usage/format";
import type { FilterOptions } from "~/features/usage/UsageFilters";
import { UsageFilters } from "~/features/usage/UsageFilters";
import { memberChoices } from "~/features/usage/member-choices";
import { listModels } from "~/platform/models.server";
import { teamApi } from "~/platform/team.server";
import { tokensApi } from "~/platform/tokens.server";
import type { UsageReport } from "~/platform/usage";
import { getUsage } from "~/platform/usage.server";
import { requireAccess } from "~/session.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "Usage" };

/**
 * The period comes from `?days=` (7, 30 or 90; 30 otherwise), the chart from `?chart=`, the filters
 * from `?model=&token=&member=` (decision 0088), the member choices from `?who=` (0138). The report is
 * grouped on the platform from rollups, so the loader waits for it: the page is whole on first paint,
 * with or without JavaScript. A token or member the organization does not have (a stale shared link) is
 * ignored, and the page says so; someone who has left is kept while the platform filters by them (they
 * chatted here, decision 0140).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await requireAccess("organization", request, context);
  const url = new URL(request.url);
  const days = periodFrom(url.searchParams.get("days"));
  const metric = metricFrom(url.searchParams.get("chart"));
  const asked = filtersFrom(url.searchParams);
  const who = memberSearchFrom(url.searchParams);
  // A GET form without JavaScript sends unchosen selects as `token=`: the canonical URL leaves them out.
  const canonical = usageSearch(days, metric, asked, who);
  if (url.searchParams.has("days") && [...url.searchParams.values()].some((v) => v.trim() === "") && canonical !== url.search) {
    throw redirect(`/usage${canonical}`);
  }
  const team = teamApi(api);
  const [tokens, members, chosen, models, first] = await Promise.all([
    tokensApi(api).list(),
    // The member choices: the first MEMBER_CHOICES who joined, or who match the search, and one more to
    // know there are more (decision 0138); the chosen member is read on their own.
    team.members({ limit: MEMBER_CHOICES + 1, ...(who ? { q: who } : {}) }),
    asked.member !== undefined ? team.member(asked.member) : null,
    listModels(api),
    getUsage(api, days, asked),
  ]);
  const token = tokens.ok && !tokens.data.some((t) => t.publicId === asked.token) ? undefined : asked.token;
  let filters: UsageFilterValues = { ...asked, token };
  let usage = token !== asked.token ? await getUsage(api, days, filters) : first;
  // Not a member now (404) is not enough to drop the filter: the platform still filters by someone who
  // left and chatted here, and refuses (404) anyone else (decision 0140).
  if (chosen !== null && !chosen.ok && chosen.status === 404 && !usage.ok && usage.status === 404) {
    filters = { ...filters, member: undefined };
    usage = await getUsage(api, days, filters);
  }
  const ignored = asked.token !== filters.token || asked.member !== filters.member;
  const found = members.ok ? members.data.slice(0, MEMBER_CHOICES) : [];
  const more = members.ok && members.data.length > MEMBER_CHOICES;
  const former = usage.ok ? (usage.report.formerMembers ?? []) : [];
  const options: FilterOptions = {
    models: [
      ...new Set([
        ...(models.ok ? models.models.map((m) => m.name) : []),
        ...(usage.ok ? usage.report.models.map((m) => m.model) : []),
        ...(filters.model ? [filters.model] : []),
      ]),
    ].sort(),
    tokens: tokens.ok ? tokens.data.map((t) => ({ publicId: t.publicId, revoked: t.revoked })) : [],
    members: memberChoices({
      listed: found.map((m) => ({ id: m.id, name: m.name })),
      chosen: chosen?.ok ? { id: chosen.data.id, name: chosen.data.name } : null,
      chosenId: filters.member,
      former,
      searching: who !== undefined || more,
    }),
    memberSearch: who !== undefined || more ? { query: who ?? "", matched: found.length, more } : undefined,
  };
  return { days, metric, filters, ignored, options, usage: usage.ok ? { ...usage, report: busiestOnly(usage.report) } : usage };
}

/** Rows shown per breakdown (sources, members): the busiest; the rest are counted, and in the CSV. */
const BREAKDOWN_ROWS = 50;

/**
 * The report with its source and member breakdowns cut to the busiest (the platform ranks them so): an
 * organization of thousands who all chatted made a page of thousands of rows (decision 0137).
 */
function busiestOnly(report: UsageReport) {
  const members = report.members.slice(0, BREAKDOWN_ROWS);
  const shown = new Set(members.map((m) => m.member));
  return {
    ...report,
    sources: report.sources.slice(0, BREAKDOWN_ROWS),
    members,
    // Who of the rows shown has left (the Member select has its own choices).
    former: (report.formerMembers ?? []).filter((f) => shown.has(f.member)).map((f) => f.member),
    formerMembers: undefined,
    more: { sources: Math.max(0, report.sources.length - BREAKDOWN_ROWS), members: Math.max(0, report.members.length - BREAKDOWN_ROWS) },
  };
}

export default function UsagePage() {
  const { days, metric, filters, ignored, options, usage } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const reloading = navigation.state === "loading" && navigation.location.pathname === "/usage";
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 className="text-xl font-semibold">Chat usage</h2>
          <p className="text-sm text-base-content/70">
            Requests, tokens and cost of your organization over the last {days} days, today included. Days are UTC.
            {hasFilters(filters) ? " Filtered as chosen below; a member's figures are their chats in the console." : null}
          </p>
        </div>
        <PeriodTabs days={days} metric={metric} filters={filters} />
      </div>
      <UsageFilters days={days} metric={metric} filters={filters} options={options} lastDay={usage.ok ? usage.report.to : undefined} />
      {ignored ? (
        <Alert kind="info">
          <span>A token or member in the link is not in this organization: showing usage without that filter.</span>
        </Alert>
      ) : null}
      <div aria-busy={reloading} className={`transition-opacity ${reloading ? "opacity-60" : ""}`}>
        {usage.ok ? (
          <UsageContent report={usage.report} days={days} metric={metric} filters={filters} />
        ) : (
          <UsageError message={usage.error} retryTo={usageSearch(days, metric, filters)} />
        )}
      </div>
    </div>
  );
}

function UsageContent({
  report,
  days,
  metric,
  filters,
}: {
  report: ReturnType<typeof busiestOnly>;
  days: UsagePeriod;
  metric: ChartMetric;
  filters: UsageFilterValues;
}) {
  return (
    <div className="flex flex-col gap-6">
      <UsageStats totals={report.totals} />
      {report.totals.requests === 0 ? (
        <EmptyUsage />
      ) : (
        <>
          <DailyChart daily={report.daily} days={days} metric={metric} filters={filters} />
          <UsageByModel models={report.models} totals={report.totals} />
          <SourceTable sources={report.sources} more={report.more.sources} />
          {report.members.length > 0 ? <UsageByMember members={report.members} more={report.more.members} former={report.former} /> : null}
        </>
      )}
    </div>
  );
}
