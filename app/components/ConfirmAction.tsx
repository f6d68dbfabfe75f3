import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { useEffect, useRef } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { useIsPending } from "~/lib/use-is-pending";

interface ConfirmActionProps {
  /** The button that opens the question. */
  label: ReactNode;
  question: string;
  confirmLabel: string;
  busyLabel: string;
  intent: string;
  fields?: Record<string, string | number>;
  /** The route whose action takes the form (default: the current route). */
  action?: string;
  summaryClassName?: string;
  confirmClassName?: string;
}

/**
 * A destructive action with a confirmation step the page renders (DESIGN §6: no window.confirm), in a
 * `<details>` so it opens without JavaScript; with it, the confirm button shows a busy label and is
 * disabled while the request runs, and the step closes when it is done.
 */
export function ConfirmAction({
  label,
  question,
  confirmLabel,
  busyLabel,
  intent,
  fields = {},
  action,
  summaryClassName = "btn btn-sm btn-error btn-outline",
  confirmClassName = "btn btn-sm btn-error",
}: ConfirmActionProps) {
  const hydrated = useHydrated();
  const busy = useIsPending({ intent, fields, formAction: action });
  const details = useRef<HTMLDetailsElement>(null);
  const wasBusy = useRef(false);
  useEffect(() => {
    if (wasBusy.current && !busy && details.current) details.current.open = false;
    wasBusy.current = busy;
  }, [busy]);
  return (
    <details ref={details} className="dropdown dropdown-end">
      <summary role="button" className={summaryClassName}>
        {label}
      </summary>
      <div
        className="dropdown-content z-30 mt-2 w-80 rounded-box border border-base-300 bg-base-100 p-4 text-left shadow-lg"
        role="alertdialog"
        aria-label={question}
      >
        <p className="mb-3 text-sm font-normal whitespace-normal">{question}</p>
        <Form method="post" action={action} className="flex justify-end gap-2">
          <input type="hidden" name="intent" value={intent} />
          {Object.entries(fields).map(([k, v]) => (
            <input key={k} type="hidden" name={k} value={v} />
          ))}
          {hydrated ? (
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => details.current?.removeAttribute("open")} disabled={busy}>
              Cancel
            </button>
          ) : null}
          <button type="submit" className={confirmClassName} disabled={busy}>
            {busy ? busyLabel : confirmLabel}
          </button>
        </Form>
      </div>
    </details>
  );
}
