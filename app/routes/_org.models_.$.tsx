import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ArrowLeft, MessageSquare } from "lucide-react";
import { Figure } from "~/features/models/Figure";
import { figureTexts, modelPagePath } from "~/features/models/reliability";
import { StatusDot } from "~/features/models/StatusDot";
import { statusOf } from "~/features/models/status";
import { Timeline, TimelineTables } from "~/features/models/Timeline";
import { useModelStatus } from "~/features/models/use-model-status";
import { platformStatus } from "~/lib/actions.server";
import { useTimeZone } from "~/lib/use-time-zone";
import { listModels, modelHistory, modelMetrics, modelStatuses } from "~/platform/models.server";
import { requireAccess } from "~/session.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = {
  title: "Models",
  tabTitle: ({ data }) => (data as Awaited<ReturnType<typeof loader>> | undefined)?.model.displayName,
};

/**
 * /models/{name}: one model's last 7 days (issue 17). `?scope=platform` shows every organization's
 * traffic instead of the viewer's, where the operator publishes it; a plain link, so it works without
 * JavaScript like the rest of the page, which is drawn on the server.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api } = await requireAccess("organization", request, context);
  const name = params["*"] ?? "";
  const [history, models, statuses, metrics] = await Promise.all([modelHistory(api, name), listModels(api), modelStatuses(api), modelMetrics(api)]);
  if (!history.ok) throw new Response(history.error, { status: history.status === 404 ? 404 : platformStatus(history.status) });
  const model = models.ok ? models.models.find((m) => m.name === name) : undefined;
  if (!model) throw new Response("Not Found", { status: 404 });
  const published = history.data.platformHours !== null;
  const scope = published && new URL(request.url).searchParams.get("scope") === "platform" ? "platform" : "organization";
  return { model, history: history.data, statuses, metrics: metrics?.[name] ?? null, scope, published } as const;
}

export default function ModelPage() {
  const { model, history, statuses, metrics, scope, published } = useLoaderData<typeof loader>();
  const status = statusOf(useModelStatus(statuses), model.name);
  const timeZone = useTimeZone();
  const platform = scope === "platform";
  const figures = figureTexts(platform ? metrics?.platformLastHour : metrics?.lastHour, metrics?.uptime24h);
  const whose = platform ? "all organizations" : "your organization";
  const hours = platform ? (history.platformHours ?? []) : history.hours;
  const path = modelPagePath(model.name);
  const stats: [string, string][] = [
    ["Uptime (24 h)", figures.uptime],
    ["Uptime (7 days)", figureTexts(null, metrics?.uptime7d).uptime],
    ["p50 time to first token (1 h)", figures.p50],
    ["Tokens/s (1 h)", figures.tokensPerSecond],
    ["Error rate (1 h)", figures.errorRate],
    ["Requests (1 h)", String(figures.requests)],
  ];
  return (
    <div className="flex flex-col gap-6">
      <Link to="/models" className="btn btn-ghost btn-sm self-start">
        <ArrowLeft className="size-4" aria-hidden /> All models
      </Link>
      <section className="card bg-base-100 shadow-sm" aria-labelledby="model-title">
        <div className="card-body gap-4">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div>
              <h2 id="model-title" className="card-title">
                {model.displayName}
              </h2>
              <p className="font-mono text-sm text-base-content/70">{model.name}</p>
              <p className="mt-1 flex items-center gap-2 text-sm">
                <StatusDot status={status} />
              </p>
            </div>
            <Link to={`/chat?model=${encodeURIComponent(model.name)}`} className="btn btn-sm btn-primary btn-outline">
              <MessageSquare className="size-4" aria-hidden />
              Chat with this model
            </Link>
          </div>
          {published ? (
            <nav aria-label="Whose requests" className="flex gap-2">
              <Link to={path} className={`btn btn-sm ${platform ? "btn-ghost" : "btn-active"}`} aria-current={platform ? undefined : "page"}>
                Your organization
              </Link>
              <Link
                to={`${path}?scope=platform`}
                className={`btn btn-sm ${platform ? "btn-active" : "btn-ghost"}`}
                aria-current={platform ? "page" : undefined}
              >
                Whole platform
              </Link>
            </nav>
          ) : null}
          <p className="text-sm text-base-content/70">
            Measured on requests from {whose}. Uptime is the share of the time the model was online, whoever called it.
          </p>
          <dl className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
            {stats.map(([label, value]) => (
              <div key={label} className="rounded-box bg-base-200 p-3">
                <dt className="text-xs text-base-content/70">{label}</dt>
                <dd className="text-lg font-semibold tabular-nums">
                  <Figure text={value} />
                </dd>
              </div>
            ))}
          </dl>
        </div>
      </section>
      <section className="card bg-base-100 shadow-sm" aria-labelledby="timeline-heading">
        <div className="card-body gap-4">
          <h2 id="timeline-heading" className="card-title">
            Last {history.days} days
          </h2>
          <Timeline from={history.from} to={history.to} bands={history.bands} hours={hours} timeZone={timeZone} whose={whose} />
          <TimelineTables bands={history.bands} hours={hours} timeZone={timeZone} />
        </div>
      </section>
    </div>
  );
}
