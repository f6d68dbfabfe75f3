import { Link } from "@remix-run/react";
import { TableRegion } from "~/components/TableRegion";
import { formatDateTime } from "~/lib/datetime";
import type { AuditEntry } from "~/platform/audit";
import { AUDIT_ACTION_LABELS } from "~/platform/audit";
import { auditValueLines } from "./audit-values";

interface AuditTableProps {
  entries: AuditEntry[];
  timeZone: string;
  /** The system organization's view names each entry's organization, linked to that organization's entries. */
  organizationFilter: ((organizationId: number) => string) | null;
}

/** A value before or after, a field a line: a row of many fields stays readable. */
function ValueLines({ value, timeZone }: { value: unknown; timeZone: string }) {
  return auditValueLines(value, timeZone).map(({ label, text }) => (
    <div key={label}>
      <span className="text-base-content/70">{label}:</span> {text}
    </div>
  ));
}

/** The log, newest first: when, who, what, on what, the values before and after, from where. */
export function AuditTable({ entries, timeZone, organizationFilter }: AuditTableProps) {
  return (
    <TableRegion label="Audit log table">
      <table className="table table-sm" aria-label="Audit log">
        <thead>
          <tr>
            <th>When</th>
            {organizationFilter ? <th>Organization</th> : null}
            <th>Who</th>
            <th>Action</th>
            <th>Target</th>
            <th>Before</th>
            <th>After</th>
            <th>Address</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id} data-action={entry.action}>
              <td className="whitespace-nowrap">
                <time dateTime={entry.timestamp}>{formatDateTime(entry.timestamp, timeZone)}</time>
              </td>
              {organizationFilter ? (
                <td>
                  {entry.organizationId === null ? (
                    <span className="text-base-content/60">None</span>
                  ) : (
                    <div className="flex flex-col">
                      <Link to={organizationFilter(entry.organizationId)} className="link" title="Show only this organization's entries">
                        {entry.organizationName ?? "Deleted organization"}
                      </Link>
                      <span className="text-xs text-base-content/70">#{entry.organizationId}</span>
                    </div>
                  )}
                </td>
              ) : null}
              <td>
                {entry.actor ? (
                  <div className="flex flex-col">
                    <span>{entry.actor.name}</span>
                    <span className="text-xs text-base-content/70">
                      {entry.actor.email}
                      {/* As /team marks it: another account may show the same address. */}
                      {entry.actor.emailVerified === false ? (
                        <span className="badge badge-ghost badge-xs ml-1 whitespace-nowrap" title="The sign-in provider had not confirmed this email">
                          unverified
                        </span>
                      ) : null}
                    </span>
                  </div>
                ) : (
                  <span className="text-base-content/60">Platform</span>
                )}
              </td>
              <td className="whitespace-nowrap">{AUDIT_ACTION_LABELS[entry.action]}</td>
              {/* Breaks anywhere only when it must: `break-all` let the table starve this column to five letters a line. */}
              <td className="min-w-40 font-mono text-xs [overflow-wrap:anywhere]">{entry.target}</td>
              <td className="text-xs break-words">
                <ValueLines value={entry.oldValue} timeZone={timeZone} />
              </td>
              <td className="text-xs break-words">
                <ValueLines value={entry.newValue} timeZone={timeZone} />
              </td>
              <td className="font-mono text-xs">{entry.address}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
