import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useNavigation } from "@remix-run/react";
import { EmptyUsage, ModelTable, PeriodTabs, SourceTable, UsageError, UsageStats } from "~/features/usage/components";
import { DailyChart } from "~/features/usage/DailyChart";
import { metricFrom, periodFrom, usageSearch } from "~/features/usage/format";
import type { ChartMetric, UsagePeriod } from "~/features/usage/format";
import type { UsageReport } from "~/platform/usage";
import { getUsage } from "~/platform/usage.server";
import { requireAccess } from "~/session.server";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Usage" };
export const meta: MetaFunction = () => [{ title: "Usage · AI Console" }];

/**
 * The period comes from `?days=` (7, 30 or 90; 30 otherwise), the chart from `?chart=`. The report is
 * one grouped query, so the loader waits for it: the page is whole on first paint, with or without
 * JavaScript, and switching periods shows the global progress bar (decision 0050).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await requireAccess("organization", request, context);
  const url = new URL(request.url);
  const days = periodFrom(url.searchParams.get("days"));
  const metric = metricFrom(url.searchParams.get("chart"));
  return { days, metric, usage: await getUsage(api, days) };
}

export default function UsagePage() {
  const { days, metric, usage } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const reloading = navigation.state === "loading" && navigation.location.pathname === "/usage";
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 className="text-xl font-semibold">Chat usage</h2>
          <p className="text-sm text-base-content/70">
            Requests, tokens and cost of your organization over the last {days} days, today included. Days are UTC.
          </p>
        </div>
        <PeriodTabs days={days} metric={metric} />
      </div>
      <div aria-busy={reloading} className={`transition-opacity ${reloading ? "opacity-60" : ""}`}>
        {usage.ok ? (
          <UsageContent report={usage.report} days={days} metric={metric} />
        ) : (
          <UsageError message={usage.error} retryTo={usageSearch(days, metric)} />
        )}
      </div>
    </div>
  );
}

function UsageContent({ report, days, metric }: { report: UsageReport; days: UsagePeriod; metric: ChartMetric }) {
  return (
    <div className="flex flex-col gap-6">
      <UsageStats totals={report.totals} />
      {report.totals.requests === 0 ? (
        <EmptyUsage />
      ) : (
        <>
          <DailyChart daily={report.daily} days={days} metric={metric} />
          <ModelTable models={report.models} totals={report.totals} />
          <SourceTable sources={report.sources} />
        </>
      )}
    </div>
  );
}
