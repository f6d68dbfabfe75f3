import { getFormProps, getInputProps } from "@conform-to/react";
import { useForm } from "~/lib/use-form";
import type { SubmissionResult } from "@conform-to/react";
import { parseForm } from "~/lib/parse-form";
import { Form } from "@remix-run/react";
import { Gauge } from "lucide-react";
import { useRef } from "react";
import type { SpendCapState } from "@contract/billing";
import { formatMoney } from "@contract/money";
import { Alert } from "~/components/Alert";
import { KeptMarkup } from "~/components/KeptMarkup";
import { useFocusAfterSubmission } from "~/lib/focus-after-submission";
import { useArrivalKey, useFocusOnArrival } from "~/lib/use-arrival";
import { useIsPending } from "~/lib/use-is-pending";
import { utcMonthStartText } from "~/lib/utc-month";
import { spendCapForm } from "./spend-cap-form";
import { PageOrganizationField } from "~/features/auth/PageOrganizationField";

/**
 * The organization's monthly spend cap (issue 11): what this UTC month has spent against it, and for
 * admins the form that sets it (empty: no cap). Requests that could pass it are refused with 402.
 * When the cap could not be loaded there is only the warning: the form would start empty and remove it.
 */
export function SpendCapForm({
  now,
  timeZone,
  ...props
}: {
  state: SpendCapState | null;
  /** When the page was loaded, and the viewer's zone: the card says when this UTC month began. */
  now: number;
  timeZone: string;
  isAdmin: boolean;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const monthStart = utcMonthStartText(now, timeZone);
  // Before any submission the card is the same until the month's spend or the cap changes: rendered
  // once, kept (decision 0119).
  return (
    <KeptMarkup
      as="section"
      name="spend-cap"
      inputs={[props.state, props.isAdmin, monthStart]}
      when={props.lastResult === undefined}
      className="card bg-base-100 shadow-sm"
      aria-labelledby="spend-cap-title"
    >
      <SpendCapFields {...props} monthStart={monthStart} />
    </KeptMarkup>
  );
}

const SAVING = { intent: "spend-cap" };

function SpendCapFields({
  state,
  isAdmin,
  lastResult,
  monthStart,
}: {
  state: SpendCapState | null;
  isAdmin: boolean;
  lastResult: SubmissionResult<string[]> | undefined;
  monthStart: string;
}) {
  const arrival = useArrivalKey(lastResult);
  const [form, fields] = useForm({
    id: "spend-cap",
    lastResult,
    defaultValue: { monthlyCap: state?.monthlyCap === null || !state ? "" : String(state.monthlyCap) },
    onValidate: ({ formData }) => parseForm(formData, { schema: spendCapForm }),
  });
  const pending = useIsPending(SAVING);
  const { key, ...capProps } = getInputProps(fields.monthlyCap, { type: "text", ariaDescribedBy: "spend-cap-help spend-cap-month" });
  const fieldError = fields.monthlyCap.errors?.[0];
  // The server refused the cap (a page without JavaScript, or on a phone with the card below the fold): the
  // field with its error takes focus; with JavaScript conform puts it in the field itself (decision 0091).
  const refusedField = useFocusOnArrival<HTMLDivElement>(Boolean(lastResult?.error?.monthlyCap), lastResult);
  // The button takes the focus with it while it is disabled (the save running): it has it back after.
  const save = useRef<HTMLButtonElement>(null);
  useFocusAfterSubmission(SAVING, () => save.current);
  return (
    <div className="card-body gap-3">
      <h2 id="spend-cap-title" className="card-title">
        <Gauge className="size-5" aria-hidden />
        Monthly spend cap
      </h2>
      {state ? (
        <p>
          {state.monthlyCap === null
            ? `No cap. Spent this month (UTC): ${formatMoney(state.spentThisMonth)}.`
            : `Spent this month (UTC): ${formatMoney(state.spentThisMonth)} of ${formatMoney(state.monthlyCap)}.`}
        </p>
      ) : (
        <Alert kind="warning">The monthly spend cap could not be loaded.</Alert>
      )}
      <p id="spend-cap-month" className="text-sm text-base-content/70">
        This month began {monthStart}.
      </p>
      {/* No form when the cap could not be read: an empty field there would read "no cap", and Save would remove it. */}
      {isAdmin && state ? (
        <Form method="post" className="flex flex-col gap-2" replace preventScrollReset {...getFormProps(form)}>
          <input type="hidden" name="intent" value="spend-cap" />
          <PageOrganizationField />
          <div className="flex flex-col gap-2" {...refusedField}>
            <label className="fieldset-legend" htmlFor={fields.monthlyCap.id}>
              Monthly spend cap (USD)
            </label>
            <div className="flex flex-wrap items-start gap-2">
              <input key={key} {...capProps} inputMode="decimal" placeholder="No cap" className={`input max-w-xs ${fieldError ? "input-error" : ""}`} />
              <button ref={save} type="submit" className="btn btn-primary" disabled={pending}>
                {pending ? "Saving…" : "Save cap"}
              </button>
            </div>
            {fieldError ? (
              <p id={fields.monthlyCap.errorId} className="text-sm text-error">
                {fieldError}
              </p>
            ) : null}
          </div>
          <p id="spend-cap-help" className="text-sm text-base-content/70">
            Leave empty for no cap. Requests that could take this month past the cap are refused.
          </p>
          {form.errors?.[0] ? (
            <Alert key={arrival} kind="error" focus={lastResult !== undefined}>
              {form.errors[0]}
            </Alert>
          ) : null}
        </Form>
      ) : form.errors?.[0] ? (
        // A save refused because the person is no longer an admin: the form went with the role, the reason stays.
        <Alert key={arrival} kind="error" focus={lastResult !== undefined}>
          {form.errors[0]}
        </Alert>
      ) : null}
    </div>
  );
}
