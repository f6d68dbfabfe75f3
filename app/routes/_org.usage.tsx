import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Await, useLoaderData } from "@remix-run/react";
import { Suspense } from "react";
import { DailyChart, EmptyUsage, ModelTable, PeriodTabs, SourceTable, UsageError, UsageSkeleton, UsageStats } from "~/features/usage/components";
import { metricFrom, periodFrom, USAGE_LOAD_ERROR, usageSearch } from "~/features/usage/format";
import type { ChartMetric, UsagePeriod } from "~/features/usage/format";
import type { UsageReport } from "~/platform/usage";
import { getUsage } from "~/platform/usage.server";
import { requireAccess } from "~/session.server";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Usage" };
export const meta: MetaFunction = () => [{ title: "Usage · AI Console" }];

/** The period comes from `?days=` (7, 30 or 90; 30 otherwise); the report streams in after the page. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await requireAccess("organization", request, context);
  const url = new URL(request.url);
  const days = periodFrom(url.searchParams.get("days"));
  const metric = metricFrom(url.searchParams.get("chart"));
  return { days, metric, usage: getUsage(api, days) };
}

export default function UsagePage() {
  const { days, metric, usage } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 className="text-xl font-semibold">Chat usage</h2>
          <p className="text-sm text-base-content/70">Requests, tokens and cost of your organization over the last {days} days, today included. Days are UTC.</p>
        </div>
        <PeriodTabs days={days} metric={metric} />
      </div>
      <Suspense key={`${days}:${metric}`} fallback={<UsageSkeleton />}>
        <Await resolve={usage} errorElement={<UsageError message={USAGE_LOAD_ERROR} retryTo={usageSearch(days, metric)} />}>
          {(result) =>
            result.ok ? <UsageContent report={result.report} days={days} metric={metric} /> : <UsageError message={result.error} retryTo={usageSearch(days, metric)} />
          }
        </Await>
      </Suspense>
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
