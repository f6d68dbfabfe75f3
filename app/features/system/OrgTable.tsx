import { getFormProps, getInputProps } from "@conform-to/react";
import { useForm } from "~/lib/use-form";
import { parseForm } from "~/lib/parse-form";
import { Form, Link } from "@remix-run/react";
import { useRef } from "react";
import { SaveOnChangeSelect } from "~/components/SaveOnChangeSelect";
import { PINNED_END_CELL } from "~/components/TableRegion";
import { PageOrganizationField } from "~/features/auth/PageOrganizationField";
import { formatMoney } from "@contract/money";
import { formatDateTime } from "~/lib/datetime";
import { focusSectionAfterAction } from "~/lib/focus-after-action";
import { useFocusAfterSubmission } from "~/lib/focus-after-submission";
import { useFocusOnArrival } from "~/lib/use-arrival";
import { useIsPending } from "~/lib/use-is-pending";
import { PAYMENT_MODES } from "~/platform/system";
import type { OrganizationSummary } from "~/platform/system";
import { GrantCreditForm } from "./GrantCreditForm";
import { ReverseCreditForm } from "./ReverseCreditForm";
import { PAYMENT_MODE_LABELS, renameOrganizationForm } from "./org-form";
import type { OrgEditorResult } from "./org-form";

export function OrgTable({
  organizations,
  canEdit,
  refusal,
  timeZone,
}: {
  organizations: OrganizationSummary[];
  canEdit: boolean;
  refusal: OrgEditorResult | null;
  timeZone: string;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="table" aria-label="Organizations">
        <thead>
          <tr>
            <th className="w-16">ID</th>
            <th>Name</th>
            <th className="text-right">Members</th>
            <th>Payment mode</th>
            <th className="text-right">Balance</th>
            <th>Created</th>
            {canEdit ? <th className={PINNED_END_CELL}>Credit</th> : null}
          </tr>
        </thead>
        <tbody>
          {organizations.map((org) => (
            <tr key={org.id} aria-label={org.name}>
              <td className="font-mono">
                {canEdit ? (
                  // The id leads to the organization's audit log (its filter is by id: decision 0122).
                  <Link to={`/audit?organization=${org.id}`} className="link" aria-label={`Audit log of ${org.name} (#${org.id})`}>
                    {org.id}
                  </Link>
                ) : (
                  org.id
                )}
              </td>
              <td>
                {canEdit ? (
                  <RenameForm org={org} refusal={refusal?.orgId === org.id && refusal.intent === "rename" ? refusal : null} />
                ) : (
                  <span className="font-medium">{org.name}</span>
                )}
              </td>
              <td className="text-right tabular-nums">{org.memberCount}</td>
              <td>
                {canEdit ? (
                  <PaymentModeForm org={org} refusal={refusal?.orgId === org.id && refusal.intent === "payment-mode" ? refusal : null} />
                ) : (
                  PAYMENT_MODE_LABELS[org.paymentMode]
                )}
              </td>
              <td className="text-right tabular-nums" data-testid={`balance-${org.id}`}>
                {formatMoney(org.balance)}
                {org.paymentMode === "invoice" ? <div className="text-xs text-base-content/60">since last invoice</div> : null}
              </td>
              <td className="whitespace-nowrap text-sm text-base-content/70">{formatDateTime(org.createdAt, timeZone)}</td>
              {canEdit ? (
                <td className={PINNED_END_CELL}>
                  <CreditForms org={org} refusal={refusal} />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A new balance (a credit granted or taken back) starts both credit forms afresh and closed, so an amount
 * just sent can't be sent again by mistake; a refusal keeps what was typed. Closed, the form takes the
 * focus with it: the disclosure it was sent from has it back (DESIGN §6).
 */
function CreditForms({ org, refusal }: { org: OrganizationSummary; refusal: OrgEditorResult | null }) {
  const grant = useRef<HTMLElement>(null);
  const reverse = useRef<HTMLElement>(null);
  useFocusAfterSubmission({ intent: "grant-credit", fields: { orgId: org.id } }, () => grant.current);
  useFocusAfterSubmission({ intent: "reverse-credit", fields: { orgId: org.id } }, () => reverse.current);
  return (
    <div className="flex flex-col items-start gap-1">
      <GrantCreditForm
        key={`grant-${org.balance}`}
        org={org}
        refusal={refusal?.orgId === org.id && refusal.intent === "grant-credit" ? refusal : null}
        summaryRef={grant}
      />
      <ReverseCreditForm
        key={`reverse-${org.balance}`}
        org={org}
        refusal={refusal?.orgId === org.id && refusal.intent === "reverse-credit" ? refusal : null}
        summaryRef={reverse}
      />
    </div>
  );
}

/**
 * Rename one organization (conform): the server's field error shows under the input, which keeps the typed
 * text. The row may be far down the page: the refused form takes focus (decision 0091; conform puts it in
 * the field with JavaScript, the browser's `autofocus` on the form without).
 */
function RenameForm({ org, refusal }: { org: OrganizationSummary; refusal: Extract<OrgEditorResult, { intent: "rename" }> | null }) {
  const [form, fields] = useForm({
    id: `rename-${org.id}`,
    lastResult: refusal?.result,
    defaultValue: { name: org.name },
    onValidate: ({ formData }) => parseForm(formData, { schema: renameOrganizationForm }),
    shouldRevalidate: "onInput",
  });
  const renaming = { intent: "rename", fields: { orgId: org.id } };
  const busy = useIsPending(renaming);
  const error = fields.name.errors?.[0];
  const { key, ...inputProps } = getInputProps(fields.name, { type: "text" });
  const refused = useFocusOnArrival<HTMLFormElement>(Boolean(refusal?.result.error?.name), refusal);
  // The form comes back afresh under a new name (and its button is disabled meanwhile): the focus it
  // took with it goes to its Rename button.
  const button = useRef<HTMLButtonElement>(null);
  useFocusAfterSubmission(renaming, () => button.current);
  const formProps = getFormProps(form);
  return (
    // A new name from the server starts the form afresh.
    // Its row may go with the new name (it no longer matches the search): the list's heading takes focus then.
    <Form
      method="post"
      className="flex flex-col gap-1"
      {...formProps}
      {...refused}
      key={org.name}
      onSubmit={(event) => {
        formProps.onSubmit(event);
        if (!event.defaultPrevented) focusSectionAfterAction(event.currentTarget);
      }}
    >
      <input type="hidden" name="intent" value="rename" />
      <input type="hidden" name="orgId" value={org.id} />
      <PageOrganizationField />
      <div className="flex items-center gap-2">
        <label htmlFor={fields.name.id} className="sr-only">
          Name of organization {org.id}
        </label>
        <input key={key} {...inputProps} className={`input input-sm w-56 ${error ? "input-error" : ""}`} required maxLength={100} />
        <button ref={button} type="submit" className="btn btn-sm" disabled={busy}>
          {busy ? "Renaming..." : "Rename"}
          {/* The name the server holds: the field's text may be the new one, half typed. */}
          <span className="sr-only"> {org.name}</span>
        </button>
      </div>
      {error ? (
        <span id={fields.name.errorId} className="text-sm text-error">
          {error}
        </span>
      ) : null}
    </Form>
  );
}

const PAYMENT_MODE_OPTIONS = PAYMENT_MODES.map((mode) => ({ value: mode, label: PAYMENT_MODE_LABELS[mode] }));

function PaymentModeForm({ org, refusal }: { org: OrganizationSummary; refusal: OrgEditorResult | null }) {
  // The refusal answers the submission: it takes focus, scrolled into view (decision 0091).
  const focus = useFocusOnArrival<HTMLSpanElement>(refusal !== null, refusal);
  return (
    <SaveOnChangeSelect
      id={`org-mode-${org.id}`}
      label={`Payment mode of ${org.name}`}
      name="paymentMode"
      intent="payment-mode"
      fields={{ orgId: org.id }}
      options={PAYMENT_MODE_OPTIONS}
      value={org.paymentMode}
      answer={refusal}
      saveLabel="Save mode"
      saveSubject={`of ${org.name}`}
      selectClassName="select select-sm w-48"
    >
      {refusal ? (
        <span className="text-sm text-error" {...focus}>
          {refusal.message}
        </span>
      ) : null}
    </SaveOnChangeSelect>
  );
}
