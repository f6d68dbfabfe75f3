import { getFormProps, getInputProps } from "@conform-to/react";
import { useForm } from "~/lib/use-form";
import type { FieldMetadata } from "@conform-to/react";
import { parseForm } from "~/lib/parse-form";
import { Form } from "@remix-run/react";
import type { RefObject } from "react";
import { Alert } from "~/components/Alert";
import { PageOrganizationField } from "~/features/auth/PageOrganizationField";
import { useArrivalKey, useFocusOnArrival } from "~/lib/use-arrival";
import { useIsPending } from "~/lib/use-is-pending";
import type { OrganizationSummary } from "~/platform/system";
import { CREDIT_MAX, CREDIT_REASON_MAX } from "@contract/system";
import { grantCreditForm } from "./org-form";
import type { OrgEditorResult } from "./org-form";

/**
 * 'Grant credit' for one organization (conform), behind a disclosure so the table stays compact; it
 * opens by itself when the server refused it, showing the errors beside the typed values.
 */
export function GrantCreditForm({
  org,
  refusal,
  summaryRef,
}: {
  org: OrganizationSummary;
  refusal: Extract<OrgEditorResult, { intent: "grant-credit" }> | null;
  /** Where focus goes once a credit sent from here closes the form (see `CreditForms`). */
  summaryRef?: RefObject<HTMLElement>;
}) {
  const [form, fields] = useForm({
    id: `credit-${org.id}`,
    lastResult: refusal?.result,
    onValidate: ({ formData }) => parseForm(formData, { schema: grantCreditForm }),
    shouldRevalidate: "onInput",
  });
  const busy = useIsPending({ intent: "grant-credit", fields: { orgId: org.id } });
  return (
    <details className="group" open={refusal !== null || undefined}>
      <summary ref={summaryRef} className="btn btn-sm btn-ghost whitespace-nowrap">
        Grant credit<span className="sr-only"> to {org.name}</span>
      </summary>
      <Form method="post" className="mt-2 flex w-64 flex-col gap-2" aria-label={`Grant credit to ${org.name}`} {...getFormProps(form)}>
        <input type="hidden" name="intent" value="grant-credit" />
        <input type="hidden" name="orgId" value={org.id} />
        <PageOrganizationField />
        <CreditFields fields={fields} refusal={refusal} amountLabel="Amount (USD)" reasonPlaceholder="Trial, support…" />
        <button type="submit" className="btn btn-sm btn-primary" disabled={busy}>
          {busy ? "Granting..." : "Grant"}
        </button>
      </Form>
    </details>
  );
}

/** The browser's own checks before JavaScript loads (the server checks everything again). */
export const CREDIT_AMOUNT_LIMITS = { min: 0.01, max: CREDIT_MAX, step: 0.01, required: true };
export const CREDIT_REASON_LIMITS = { maxLength: CREDIT_REASON_MAX, required: true };

/**
 * A credit form's amount and reason with the server's refusal: the first field it refused, or else its
 * message, takes focus, the form being in a row that may be far down the page (decision 0091).
 */
export function CreditFields({
  fields,
  refusal,
  amountLabel,
  reasonPlaceholder,
}: {
  fields: { amount: FieldMetadata<unknown>; reason: FieldMetadata<unknown> };
  refusal: CreditRefusal | null;
  amountLabel: string;
  reasonPlaceholder: string;
}) {
  const arrival = useArrivalKey(refusal);
  const refused = firstRefusedField(refusal);
  return (
    <>
      <CreditField label={amountLabel} field={fields.amount} type="number" extra={CREDIT_AMOUNT_LIMITS} refused={refused === "amount"} />
      <CreditField
        label="Reason"
        field={fields.reason}
        type="text"
        extra={{ ...CREDIT_REASON_LIMITS, placeholder: reasonPlaceholder }}
        refused={refused === "reason"}
      />
      {refusal?.message ? (
        <Alert key={arrival} kind="error" focus>
          <span>{refusal.message}</span>
        </Alert>
      ) : null}
    </>
  );
}

type CreditRefusal = { message?: string | null; result: { error?: Record<string, unknown> | null } };

/**
 * The first field the server refused in a credit form's answer: it takes focus, the form being in a row
 * that may be far down the page (decision 0091). Read from the answer, not from what conform shows as
 * the person types, so focus never moves while they correct it.
 */
function firstRefusedField(refusal: CreditRefusal | null): "amount" | "reason" | null {
  const errors = refusal?.result.error ?? {};
  return errors.amount ? "amount" : errors.reason ? "reason" : null;
}

/**
 * A credit form's field: its label, the input with what was typed, and the server's or the browser's error
 * under it. `refused`: the server's answer refused it first, so the field with its error takes focus
 * (conform puts it in the input with JavaScript; without, the browser's `autofocus` on the field does).
 */
export function CreditField({
  label,
  field,
  type,
  extra,
  refused = false,
}: {
  label: string;
  field: FieldMetadata<unknown>;
  type: "number" | "text";
  extra: Record<string, unknown>;
  refused?: boolean;
}) {
  const error = field.errors?.[0];
  const { key, ...props } = getInputProps(field, { type });
  const focus = useFocusOnArrival<HTMLDivElement>(refused);
  return (
    <div {...focus}>
      <label className="block">
        <span className="mb-1 block text-sm">{label}</span>
        <input key={key} {...props} {...extra} className={`input input-sm w-full ${error ? "input-error" : ""}`} />
        {error ? (
          <span id={field.errorId} className="mt-1 block text-sm text-error">
            {error}
          </span>
        ) : null}
      </label>
    </div>
  );
}
