import { DATE_RANGE_REVERSED } from "@contract/date-range";
import { Form, Link } from "@remix-run/react";
import { useFormValuesFrom } from "~/lib/use-form-values-from";
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS } from "~/platform/audit";
import type { AuditFilters } from "./audit-filters";

interface AuditFilterFormProps {
  filters: AuditFilters;
  /** The system organization's view filters by organization too (by id: there may be thousands). */
  system: boolean;
}

/** What each control shows for the filters. */
const valuesOf = (filters: AuditFilters) => ({
  organization: String(filters.organization ?? ""),
  action: filters.action ?? "",
  actor: filters.actor,
  from: filters.from,
  to: filters.to,
});

/**
 * A plain GET form: the filters land in the URL, with or without JavaScript. After Apply, Clear or Back
 * the controls show the loaded filters, and stay mounted: the one in use keeps the keyboard focus.
 */
export function AuditFilterForm({ filters, system }: AuditFilterFormProps) {
  const form = useFormValuesFrom(filters, valuesOf);
  const shown = valuesOf(filters);
  // Days as YYYY-MM-DD compare as text.
  const reversed = filters.from !== "" && filters.to !== "" && filters.from > filters.to;
  return (
    <Form ref={form} method="get" className="flex flex-wrap items-end gap-3" aria-label="Filter the audit log" role="search">
      {system ? (
        <label className="flex flex-col gap-1 text-sm">
          Organization ID
          <input
            type="number"
            name="organization"
            min={1}
            step={1}
            inputMode="numeric"
            className="input input-sm w-40"
            defaultValue={shown.organization}
            placeholder="All organizations"
          />
        </label>
      ) : null}
      <label className="flex flex-col gap-1 text-sm">
        Action
        <select name="action" className="select select-sm" defaultValue={shown.action}>
          <option value="">All actions</option>
          {AUDIT_ACTIONS.map((a) => (
            <option key={a} value={a}>
              {AUDIT_ACTION_LABELS[a]}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Actor email
        <input type="email" name="actor" className="input input-sm" defaultValue={shown.actor} placeholder="name@example.com" />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        From
        <input type="date" name="from" className="input input-sm" defaultValue={shown.from} />
      </label>
      <div className="flex flex-col gap-1 text-sm">
        <label htmlFor="audit-to">To</label>
        <input
          id="audit-to"
          type="date"
          name="to"
          className={`input input-sm ${reversed ? "input-error" : ""}`}
          defaultValue={shown.to}
          aria-invalid={reversed || undefined}
          aria-describedby={reversed ? "audit-range-error" : undefined}
        />
        {reversed ? (
          <span id="audit-range-error" className="text-error">
            {DATE_RANGE_REVERSED}
          </span>
        ) : null}
      </div>
      <button type="submit" className="btn btn-sm btn-primary">
        Apply filters
      </button>
      <Link to="/audit" className="btn btn-sm btn-ghost">
        Clear
      </Link>
    </Form>
  );
}
