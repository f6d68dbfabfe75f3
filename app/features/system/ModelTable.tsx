import { Link } from "@remix-run/react";
import { KeyRound, Pencil } from "lucide-react";
import { ConfirmAction } from "~/components/ConfirmAction";
import { StatusDot } from "~/features/models/StatusDot";
import { formatContextSize, statusOf } from "~/features/models/status";
import type { StatusMap } from "~/features/models/status";
import type { ModelConfig } from "~/platform/system";

const price = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 6 });

/** The registry as the operator sees it: live status, upstream, rate card, whether a key is set. */
export function ModelTable({
  models,
  statuses,
  canEdit,
  editing,
}: {
  models: ModelConfig[];
  statuses: StatusMap | null;
  canEdit: boolean;
  editing: string | null;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="table" aria-label="Models">
        <thead>
          <tr>
            <th>Status</th>
            <th>Name</th>
            <th>Provider and upstream</th>
            <th className="text-right">Context size</th>
            <th>Rate card (per 1M tokens)</th>
            <th>API key</th>
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
              <td colSpan={canEdit ? 7 : 6} className="py-8 text-center text-base-content/70">
                No models yet. Add one below.
              </td>
            </tr>
          ) : null}
          {models.map((m) => {
            const status = statusOf(statuses, m.name);
            return (
              <tr key={m.name} className={editing === m.name ? "bg-base-200" : undefined}>
                <td>
                  <span className="flex items-center gap-2">
                    <StatusDot status={status} />
                    <span className="capitalize">{status}</span>
                    {m.status ? <span className="badge badge-ghost badge-sm">override</span> : null}
                  </span>
                </td>
                <td className="min-w-40">
                  <div className="font-medium">{m.displayName}</div>
                  <div className="font-mono text-xs text-base-content/60">{m.name}</div>
                </td>
                <td className="max-w-64">
                  <div className="font-medium">{m.provider}</div>
                  {m.baseUrl ? <div className="truncate font-mono text-xs">{m.baseUrl}</div> : <div className="text-xs text-base-content/50">in-process</div>}
                  <div className="truncate font-mono text-xs text-base-content/60">{m.upstreamModel}</div>
                </td>
                <td className="text-right tabular-nums">{formatContextSize(m.contextSize)}</td>
                <td>
                  {m.rateCard ? (
                    <>
                      <div className="font-mono text-xs">{m.rateCard.id}</div>
                      <div className="text-xs text-base-content/70">
                        in {price.format(m.rateCard.inputPerMillion)} · out {price.format(m.rateCard.outputPerMillion)}
                      </div>
                    </>
                  ) : (
                    <span className="text-base-content/50">Free</span>
                  )}
                </td>
                <td>
                  {m.hasApiKey ? (
                    <span className="badge badge-success badge-soft gap-1">
                      <KeyRound className="size-3" aria-hidden /> Set
                    </span>
                  ) : (
                    <span className="badge badge-ghost whitespace-nowrap">Not set</span>
                  )}
                </td>
                {canEdit ? (
                  <td>
                    <div className="flex justify-end gap-2">
                      <Link to={`?model=${encodeURIComponent(m.name)}`} className="btn btn-sm btn-ghost" aria-label={`Edit ${m.name}`} preventScrollReset>
                        <Pencil className="size-4" aria-hidden /> Edit
                      </Link>
                      <ConfirmAction
                        label="Delete"
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
