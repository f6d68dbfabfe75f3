import { Form } from "@remix-run/react";
import type { MouseEvent, ReactNode } from "react";
import { Popover, PopoverClose } from "~/components/Popover";
import { focusSectionAfterAction } from "~/lib/focus-after-action";
import { useIsPending } from "~/lib/use-is-pending";
import { PageOrganizationField } from "~/features/auth/PageOrganizationField";

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
  triggerClassName?: string;
  confirmClassName?: string;
  /**
   * The id of a form whose fields the question is about (an amount to take back): the confirm button
   * submits that form, which holds the intent and fields, instead of a form of its own.
   */
  form?: string;
  /** Runs before the question opens; `preventDefault()` keeps it closed (the form's fields are refused). */
  beforeOpen?: (event: MouseEvent<HTMLButtonElement>) => void;
  /**
   * Fields the person answers with the question (a checkbox), on a line of their own above the buttons,
   * posted with the confirm button (with `form`, give them that form's id).
   */
  children?: ReactNode;
}

/**
 * A destructive action with a confirmation step the page renders (DESIGN §6: no window.confirm), in a
 * popover so it opens without JavaScript; with it, Cancel takes focus when it opens, the confirm button
 * shows a busy label and ignores presses while the request runs (keeping focus), and the step closes when it is done.
 */
export function ConfirmAction({
  label,
  question,
  confirmLabel,
  busyLabel,
  intent,
  fields = {},
  action,
  triggerClassName = "btn btn-sm btn-error btn-outline",
  confirmClassName = "btn btn-sm btn-error",
  form,
  beforeOpen,
  children,
}: ConfirmActionProps) {
  const busy = useIsPending({ intent, fields, formAction: action });
  const buttons = (
    <>
      <PopoverClose className="btn btn-ghost btn-sm" disabled={busy}>
        Cancel
      </PopoverClose>
      {/* Not `disabled` while busy: a disabled button loses focus to the page's body for the whole request,
          and a Tab pressed meanwhile starts again at the skip link. A second press is ignored instead. */}
      <button
        type="submit"
        form={form}
        className={busy ? `${confirmClassName} btn-disabled` : confirmClassName}
        aria-disabled={busy || undefined}
        onClick={(event) => {
          if (busy) event.preventDefault();
        }}
      >
        {busy ? busyLabel : confirmLabel}
      </button>
    </>
  );
  const answers = children ? <div className="mb-1 w-full text-sm font-normal whitespace-normal">{children}</div> : null;
  return (
    <Popover
      trigger={label}
      triggerClassName={triggerClassName}
      role="alertdialog"
      label={question}
      focusFirstButton
      busy={busy}
      onTriggerClick={beforeOpen}
      className="mt-2 w-80 rounded-box border border-base-300 bg-base-100 p-4 text-left shadow-lg"
    >
      <p className="mb-3 text-sm font-normal whitespace-normal">{question}</p>
      {form ? (
        <div className="flex flex-wrap justify-end gap-2">
          {answers}
          {buttons}
        </div>
      ) : (
        <Form method="post" action={action} className="flex flex-wrap justify-end gap-2" onSubmit={(event) => focusSectionAfterAction(event.currentTarget)}>
          <input type="hidden" name="intent" value={intent} />
          <PageOrganizationField />
          {Object.entries(fields).map(([k, v]) => (
            <input key={k} type="hidden" name={k} value={v} />
          ))}
          {answers}
          {buttons}
        </Form>
      )}
    </Popover>
  );
}
