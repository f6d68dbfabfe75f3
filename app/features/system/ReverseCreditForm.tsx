import { getFormProps } from "@conform-to/react";
import { useForm } from "~/lib/use-form";
import { parseForm } from "~/lib/parse-form";
import { Form } from "@remix-run/react";
import type { RefObject } from "react";
import { ConfirmAction } from "~/components/ConfirmAction";
import { PageOrganizationField } from "~/features/auth/PageOrganizationField";
import { formatMoney } from "@contract/money";
import type { OrganizationSummary } from "~/platform/system";
import { CreditFields } from "./GrantCreditForm";
import { reverseCreditForm } from "./org-form";
import type { OrgEditorResult } from "./org-form";
import { isolate } from "~/lib/bidi";

/**
 * 'Reverse credit' for one organization: takes back credit granted by mistake, under the rules of the
 * `reverse-credit` command (the platform's). It takes money away, so the button asks first (the
 * ConfirmAction question, which opens without JavaScript too) and names the amount once it is valid.
 * Behind a disclosure like 'Grant credit', open by itself when the server refused it.
 */
export function ReverseCreditForm({
  org,
  refusal,
  summaryRef,
}: {
  org: OrganizationSummary;
  refusal: Extract<OrgEditorResult, { intent: "reverse-credit" }> | null;
  /** Where focus goes once a credit sent from here closes the form (see `CreditForms`). */
  summaryRef?: RefObject<HTMLElement>;
}) {
  const [form, fields] = useForm({
    id: `reverse-${org.id}`,
    lastResult: refusal?.result,
    onValidate: ({ formData }) => parseForm(formData, { schema: reverseCreditForm }),
    shouldRevalidate: "onInput",
  });
  const amount = reverseCreditForm.shape.amount.safeParse(fields.amount.value ?? "");
  const question = amount.success
    ? `Take ${formatMoney(amount.data)} back from ${isolate(org.name)}? Its balance is ${formatMoney(org.balance)}; only a new grant gives it back.`
    : `Take this credit back from ${isolate(org.name)}? Its balance is ${formatMoney(org.balance)}; only a new grant gives it back.`;
  return (
    <details className="group" open={refusal !== null || undefined}>
      <summary ref={summaryRef} className="btn btn-sm btn-ghost whitespace-nowrap">
        Reverse credit<span className="sr-only"> of {org.name}</span>
      </summary>
      <Form method="post" className="mt-2 flex w-64 flex-col gap-2" aria-label={`Reverse credit of ${org.name}`} {...getFormProps(form)}>
        {/* Enter in a field submits through the form's first submit button, which would be the question's
            confirm button, skipping the question: a disabled first one makes Enter do nothing. */}
        <button type="submit" disabled hidden aria-hidden="true" tabIndex={-1} />
        <input type="hidden" name="intent" value="reverse-credit" />
        <input type="hidden" name="orgId" value={org.id} />
        <PageOrganizationField />
        <p className="text-sm">
          Balance: <span className="font-medium tabular-nums">{formatMoney(org.balance)}</span>
        </p>
        <CreditFields fields={fields} refusal={refusal} amountLabel="Amount to take back (USD)" reasonPlaceholder="Granted twice, mistake…" />
        <ConfirmAction
          form={form.id}
          label={
            <>
              Take back<span className="sr-only"> credit from {org.name}</span>
            </>
          }
          triggerClassName="btn btn-sm btn-error btn-outline"
          question={question}
          confirmLabel="Yes, take it back"
          busyLabel="Taking back..."
          intent="reverse-credit"
          fields={{ orgId: org.id }}
          beforeOpen={(event) => {
            // With JavaScript, refused fields show their errors instead of a question about them.
            const element = event.currentTarget.form;
            if (element && parseForm(new FormData(element), { schema: reverseCreditForm }).status !== "success") {
              event.preventDefault();
              form.validate();
            }
          }}
        />
      </Form>
    </details>
  );
}
