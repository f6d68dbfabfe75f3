import { exactDollars } from "@contract/money";
import { Link } from "@remix-run/react";
import { KeyRound, Pencil } from "lucide-react";
import { ConfirmAction } from "~/components/ConfirmAction";
import { StatusDot } from "~/features/models/StatusDot";
import { formatContextSize, statusOf } from "~/features/models/status";
import type { StatusMap } from "~/features/models/status";
import { Figure } from "~/features/models/Figure";
import { figureTexts } from "~/features/models/reliability";
import type { SystemModelMetrics } from "~/platform/models";
import type { ModelConfig } from "~/platform/system";

type SystemFigures = SystemModelMetrics["data"][number];

/** Every organization's last hour of one model, and its uptime over 24 hours, as short lines. */
function FiguresCell({ figures }: { figures: SystemFigures | undefined }) {
  const hour = figureTexts(figures?.lastHour, figures?.uptime24h);
  const lines: [string, string][] = [
    ["p50 TTFT", hour.p50],
    ["Speed", hour.tokensPerSecond],
    ["Errors", hour.errorRate],
    ["Uptime 24 h", hour.uptime],
  ];
  return (
    <td className="text-xs whitespace-nowrap">
      <div className="text-base-content/70">{hour.requests} requests</div>
      {lines.map(([label, value]) => (
        <div key={label}>
          {label}{" "}
          <span className="font-medium tabular-nums">
            <Figure text={value} />
          </span>
        </div>
      ))}
    </td>
  );
}

/**
 * The registry as the operator sees it: live status, upstream, rate card, whether a key is set, and
 * every organization's figures of the last hour (issue 17). Five narrow columns, so it fits beside
 * the sidebar at 1280 px without a scroll container (which would clip the Delete confirmation); below
 * lg it scrolls inside its card.
 */
export function ModelTable({
  models,
  statuses,
  metrics,
  canEdit,
  editing,
}: {
  models: ModelConfig[];
  statuses: StatusMap | null;
  metrics: Record<string, SystemFigures> | null;
  canEdit: boolean;
  editing: string | null;
}) {
  const columns = canEdit ? 6 : 5;
  return (
    <div className="table-region">
      <table className="table table-sm" aria-label="Models">
        <thead>
          <tr className="[&>th]:whitespace-normal">
            <th>Status</th>
            <th>Model</th>
            <th>Upstream</th>
            <th>Price per 1M tokens, key</th>
            <th>Last hour, all organizations</th>
            {canEdit ? (
              <th>
                <span className="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {models.length === 0 ? (
            <tr>
              <td colSpan={columns} className="py-8 text-center text-base-content/70">
                No models yet. Add one below.
              </td>
            </tr>
          ) : null}
          {models.map((m) => {
            const status = statusOf(statuses, m.name);
            return (
              <tr key={m.name} className={editing === m.name ? "bg-base-200" : undefined}>
                <td>
                  <div>
                    <StatusDot status={status} />
                  </div>
                  {m.status ? <span className="badge badge-ghost badge-sm mt-1">override</span> : null}
                </td>
                <td className="max-w-56 break-words">
                  <div className="font-medium">{m.displayName}</div>
                  <div className="font-mono text-xs break-all text-base-content/70">{m.name}</div>
                  <div className="text-xs text-base-content/70 tabular-nums">{formatContextSize(m.contextSize)} tokens</div>
                </td>
                <td className="max-w-56">
                  <div className="font-medium">{m.provider}</div>
                  {m.baseUrl ? (
                    <div className="truncate font-mono text-xs" title={m.baseUrl}>
                      {m.baseUrl}
                    </div>
                  ) : (
                    <div className="text-xs text-base-content/70">in-process</div>
                  )}
                  <div className="truncate font-mono text-xs text-base-content/70" title={m.upstreamModel}>
                    {m.upstreamModel}
                  </div>
                </td>
                <td>
                  {m.rateCard ? (
                    <>
                      <div className="font-mono text-xs">{m.rateCard.id}</div>
                      <div className="text-xs whitespace-nowrap text-base-content/70">
                        in {exactDollars(m.rateCard.inputPerMillion)} · out {exactDollars(m.rateCard.outputPerMillion)}
                      </div>
                    </>
                  ) : (
                    <div className="text-base-content/70">Free</div>
                  )}
                  <div className="mt-1">
                    {m.hasApiKey ? (
                      <span className="badge badge-success badge-soft badge-sm gap-1">
                        <KeyRound className="size-3" aria-hidden /> Set
                      </span>
                    ) : (
                      <span className="badge badge-ghost badge-sm whitespace-nowrap">Not set</span>
                    )}
                  </div>
                </td>
                <FiguresCell figures={metrics?.[m.name]} />
                {canEdit ? (
                  <td>
                    <div className="flex flex-col items-end gap-1">
                      <Link to={`?model=${encodeURIComponent(m.name)}`} className="btn btn-sm btn-ghost" aria-label={`Edit ${m.name}`} preventScrollReset>
                        <Pencil className="size-4" aria-hidden /> Edit
                      </Link>
                      <ConfirmAction
                        label={
                          <>
                            Delete<span className="sr-only"> {m.name}</span>
                          </>
                        }
                        question={`Delete the model ${m.name}? Chats and API calls to it stop at once.`}
                        confirmLabel="Yes, delete"
                        busyLabel="Deleting..."
                        intent="delete"
                        fields={{ name: m.name }}
                      />
                    </div>
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
