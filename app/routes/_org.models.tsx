import type { LoaderFunctionArgs } from "@remix-run/node";
import { Await, Link, useLoaderData } from "@remix-run/react";
import { MessageSquare } from "lucide-react";
import { Suspense } from "react";
import { StatusDot } from "~/features/models/StatusDot";
import { Figure } from "~/features/models/Figure";
import { figureTexts, modelPagePath } from "~/features/models/reliability";
import { formatContextSize, SKELETON_ROWS, statusOf } from "~/features/models/status";
import type { StatusMap } from "~/features/models/status";
import { useModelStatus } from "~/features/models/use-model-status";
import type { Model, ModelMetrics } from "~/platform/models";
import { listModels, modelMetrics, modelStatuses } from "~/platform/models.server";
import { requireAccess } from "~/session.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "Models" };

/**
 * The table streams in after the page (skeleton rows meanwhile): models, their status and their
 * reliability figures (issue 17), side by side; without figures the table still shows.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await requireAccess("organization", request, context);
  const table = Promise.all([listModels(api), modelStatuses(api), modelMetrics(api)]).then(([models, statuses, metrics]) => ({
    ...models,
    statuses,
    metrics,
  }));
  return { table };
}

const FIGURE_COLUMNS = ["Uptime (24 h)", "Last hour"];
/** Long headers wrap over narrow figures, so the table fits beside the sidebar. */
const WRAP = new Set(FIGURE_COLUMNS);
const COLUMNS = ["Status", "Name", "Display name", "Provider", "Context size", ...FIGURE_COLUMNS, ""];
const RIGHT = new Set(["Context size", ...FIGURE_COLUMNS]);

export default function ModelsPage() {
  const { table } = useLoaderData<typeof loader>();
  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body">
        <h2 className="card-title">Hosted models</h2>
        <p className="text-sm text-base-content/70">
          Every model your organization can call, with its live status. Latency (TTFT: the median time to the first token), speed and error rate are measured on
          your organization&apos;s requests over the last hour (with the whole platform&apos;s underneath where the operator publishes them); uptime is over 24
          hours.
        </p>
        <div className="overflow-x-auto">
          <table className="table">
            <thead>
              <tr>
                {COLUMNS.map((c, i) => (
                  <th key={i} className={`${RIGHT.has(c) ? "text-right" : ""} ${WRAP.has(c) ? "min-w-24 whitespace-normal" : ""}`.trim() || undefined}>
                    {c || <span className="sr-only">Actions</span>}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              <Suspense fallback={<SkeletonRows />}>
                <Await resolve={table} errorElement={<MessageRow text="Failed to load models" error />}>
                  {(result) =>
                    result.ok ? (
                      <ModelRows models={result.models} initialStatus={result.statuses} metrics={result.metrics} />
                    ) : (
                      <MessageRow text="Failed to load models" error />
                    )
                  }
                </Await>
              </Suspense>
            </tbody>
          </table>
        </div>
      </div>
    </div>
  );
}

function SkeletonRows() {
  return (
    <>
      {Array.from({ length: SKELETON_ROWS }, (_, i) => (
        <tr key={i} data-testid="model-skeleton" aria-hidden>
          {COLUMNS.map((_, j) => (
            <td key={j}>
              <div className="skeleton h-4 w-full min-w-8" />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}

function MessageRow({ text, error }: { text: string; error?: boolean }) {
  return (
    <tr>
      <td colSpan={COLUMNS.length}>
        <div role={error ? "alert" : "status"} className={error ? "alert alert-error" : "py-8 text-center text-base-content/70"}>
          {text}
        </div>
      </td>
    </tr>
  );
}

/** The last hour's three figures on three short lines: the same line of the whole platform's under them where published. */
function LastHourCell({ own, platform }: { own: ReturnType<typeof figureTexts>; platform: ReturnType<typeof figureTexts> | null }) {
  return (
    <td className="text-right text-sm whitespace-nowrap tabular-nums">
      <div>
        <abbr title="Median time to first token" className="text-base-content/70 no-underline">
          TTFT
        </abbr>{" "}
        <Figure text={own.p50} />
      </div>
      <div>
        <span className="text-base-content/70">speed </span>
        <Figure text={own.tokensPerSecond} />
      </div>
      <div>
        <span className="text-base-content/70">errors </span>
        <Figure text={own.errorRate} />
      </div>
      {platform ? (
        <div className="mt-1 text-xs text-base-content/70">
          whole platform: <Figure text={platform.p50} />, <Figure text={platform.tokensPerSecond} />, errors <Figure text={platform.errorRate} />
        </div>
      ) : null}
    </td>
  );
}

function ModelRows({ models, initialStatus, metrics }: { models: Model[]; initialStatus: StatusMap | null; metrics: Record<string, ModelMetrics> | null }) {
  const status = useModelStatus(initialStatus);
  if (models.length === 0) return <MessageRow text="No models available" />;
  return (
    <>
      {models.map((model) => (
        <tr key={model.name} className="hover:bg-base-200/50">
          <td>
            <StatusDot status={statusOf(status, model.name)} className="text-sm whitespace-nowrap" />
          </td>
          <td className="font-mono text-sm">
            <Link to={modelPagePath(model.name)} className="link link-hover" aria-label={`${model.name}: reliability over 7 days`}>
              {model.name}
            </Link>
          </td>
          <td>{model.displayName}</td>
          <td>
            <span className="badge badge-ghost">{model.provider}</span>
          </td>
          <td className="text-right tabular-nums">{formatContextSize(model.contextSize)}</td>
          <Figures metrics={metrics?.[model.name]} />
          <td className="text-right">
            <Link
              to={`/chat?model=${encodeURIComponent(model.name)}`}
              className="btn btn-sm btn-primary btn-outline whitespace-nowrap"
              aria-label={`Chat with this model: ${model.name}`}
            >
              <MessageSquare className="size-4" aria-hidden />
              Chat with this model
            </Link>
          </td>
        </tr>
      ))}
    </>
  );
}

function Figures({ metrics }: { metrics: ModelMetrics | undefined }) {
  const own = figureTexts(metrics?.lastHour, metrics?.uptime24h);
  // Uptime is the model's, not a share of anyone's traffic: one figure for everyone.
  const platform = metrics?.platformLastHour ? figureTexts(metrics.platformLastHour, null) : null;
  return (
    <>
      <td className="text-right tabular-nums">
        <Figure text={own.uptime} />
      </td>
      <LastHourCell own={own} platform={platform} />
    </>
  );
}
