import { Form, useSubmit } from "@remix-run/react";
import type { ReactNode } from "react";
import { useEffect, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { useIsPending } from "~/lib/use-is-pending";
import { PageOrganizationField } from "~/features/auth/PageOrganizationField";

interface SaveOnChangeSelectProps<T extends string> {
  id: string;
  /** The accessible name of the select (visually hidden). */
  label: string;
  name: string;
  /** The route whose action takes the form (default: the current route). */
  action?: string;
  /** The form's `intent` field, when its action takes several forms. */
  intent?: string;
  /** Hidden fields that say what the select is for (an id). */
  fields?: Record<string, string | number>;
  options: readonly { value: T; label: string }[];
  /** What the server holds; the select returns to it after any answer. */
  value: T;
  /** Changes after each answer (the action's data), so a refused change snaps back. */
  answer: unknown;
  /** The button that posts the form before JavaScript loads (DESIGN §6). */
  saveLabel: string;
  /** Said after `saveLabel` to a screen reader only, so a column of such buttons tells its rows apart ("of Acme"). */
  saveSubject?: string;
  selectClassName?: string;
  className?: string;
  children?: ReactNode;
}

/** A select that saves on change once hydrated; before that, its own submit button posts it. */
export function SaveOnChangeSelect<T extends string>({
  id,
  label,
  name,
  action,
  intent,
  fields = {},
  options,
  value,
  answer,
  saveLabel,
  saveSubject,
  selectClassName = "select select-sm w-40",
  className = "flex flex-col gap-1",
  children,
}: SaveOnChangeSelectProps<T>) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  const [selected, setSelected] = useState<T>(value);
  useEffect(() => setSelected(value), [value, answer]);
  const pending = useIsPending({ intent, fields, formAction: action });
  return (
    <Form method="post" action={action} className={className} data-no-draft onChange={(e) => hydrated && submit(e.currentTarget, { preventScrollReset: true })}>
      {intent ? <input type="hidden" name="intent" value={intent} /> : null}
      <PageOrganizationField />
      {Object.entries(fields).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <div className="flex items-center gap-2">
        <label htmlFor={id} className="sr-only">
          {label}
        </label>
        <select id={id} name={name} className={selectClassName} value={selected} onChange={(e) => setSelected(e.target.value as T)} aria-busy={pending}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        {hydrated ? null : (
          <button type="submit" className="btn btn-sm shrink-0">
            {saveLabel}
            {saveSubject ? <span className="sr-only"> {saveSubject}</span> : null}
          </button>
        )}
        {pending ? (
          <span className="flex items-center gap-1 text-sm text-base-content/70" role="status">
            <span className="loading loading-spinner loading-xs" aria-hidden /> Saving...
          </span>
        ) : null}
      </div>
      {children}
    </Form>
  );
}
