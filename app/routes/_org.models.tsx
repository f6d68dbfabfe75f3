import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Await, Link, useLoaderData } from "@remix-run/react";
import { MessageSquare } from "lucide-react";
import { Suspense } from "react";
import { StatusDot } from "~/features/models/StatusDot";
import { formatContextSize, SKELETON_ROWS, statusOf } from "~/features/models/status";
import type { StatusMap } from "~/features/models/status";
import { useModelStatus } from "~/features/models/use-model-status";
import type { Model } from "~/platform/models";
import { listModels, modelStatuses } from "~/platform/models.server";
import { requireAccess } from "~/session.server";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Models" };
export const meta: MetaFunction = () => [{ title: "Models · AI Console" }];

/** The table streams in after the page (skeleton rows meanwhile): models and their status, side by side. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await requireAccess("organization", request, context);
  const table = Promise.all([listModels(api), modelStatuses(api)]).then(([models, statuses]) => ({ ...models, statuses }));
  return { table };
}

const COLUMNS = ["Status", "Name", "Display name", "Provider", "Context size", ""];

export default function ModelsPage() {
  const { table } = useLoaderData<typeof loader>();
  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body">
        <h2 className="card-title">Hosted models</h2>
        <p className="text-sm text-base-content/70">Every model your organization can call, with its live status.</p>
        <div className="overflow-x-auto">
          <table className="table">
            <thead>
              <tr>
                {COLUMNS.map((c, i) => (
                  <th key={i} className={c === "Context size" ? "text-right" : undefined}>
                    {c || <span className="sr-only">Actions</span>}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              <Suspense fallback={<SkeletonRows />}>
                <Await resolve={table} errorElement={<MessageRow text="Failed to load models" error />}>
                  {(result) =>
                    result.ok ? <ModelRows models={result.models} initialStatus={result.statuses} /> : <MessageRow text="Failed to load models" error />
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

function ModelRows({ models, initialStatus }: { models: Model[]; initialStatus: StatusMap | null }) {
  const status = useModelStatus(initialStatus);
  if (models.length === 0) return <MessageRow text="No models available" />;
  return (
    <>
      {models.map((model) => (
        <tr key={model.name} className="hover:bg-base-200/50">
          <td>
            <StatusDot status={statusOf(status, model.name)} />
          </td>
          <td className="font-mono text-sm">{model.name}</td>
          <td>{model.displayName}</td>
          <td>
            <span className="badge badge-ghost">{model.provider}</span>
          </td>
          <td className="text-right tabular-nums">{formatContextSize(model.contextSize)}</td>
          <td className="text-right">
            <Link
              to={`/chat?model=${encodeURIComponent(model.name)}`}
              className="btn btn-sm btn-primary btn-outline"
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
