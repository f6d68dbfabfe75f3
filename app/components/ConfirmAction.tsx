import { Form } from "@remix-run/react";
import type { ReactNode } from "react";

interface ConfirmActionProps {
  /** The button that asks for confirmation. */
  label: ReactNode;
  /** What the user confirms, in words. */
  question: string;
  confirmLabel: string;
  intent: string;
  /** Extra hidden fields (ids) for the action. */
  fields?: Record<string, string | number>;
  action?: string;
  buttonClassName?: string;
  confirmClassName?: string;
  disabled?: boolean;
}

/**
 * A destructive action with a confirmation step rendered by the page itself (DESIGN §6: no
 * window.confirm), so it works without JavaScript: the first button opens the question, the second posts.
 */
export function ConfirmAction({ label, question, confirmLabel, intent, fields, action, buttonClassName = "btn btn-sm btn-error btn-outline", confirmClassName = "btn btn-sm btn-error", disabled }: ConfirmActionProps) {
  return (
    <details className="dropdown dropdown-end">
      <summary role="button" className={`${buttonClassName} ${disabled ? "btn-disabled" : ""}`} aria-disabled={disabled}>
        {label}
      </summary>
      <div className="dropdown-content z-30 mt-2 w-72 rounded-box bg-base-100 p-4 shadow-lg" role="alertdialog" aria-label={question}>
        <p className="mb-3 text-sm">{question}</p>
        <Form method="post" action={action} className="flex justify-end gap-2">
          <input type="hidden" name="intent" value={intent} />
          {Object.entries(fields ?? {}).map(([k, v]) => (
            <input key={k} type="hidden" name={k} value={v} />
          ))}
          <button type="submit" className={confirmClassName}>
            {confirmLabel}
          </button>
        </Form>
      </div>
    </details>
  );
}
