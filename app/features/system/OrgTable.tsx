import { Form, useNavigation } from "@remix-run/react";
import { SaveOnChangeSelect } from "~/components/SaveOnChangeSelect";
import { formatBalance } from "~/features/billing/format";
import { formatDateTime } from "~/lib/datetime";
import { PAYMENT_MODES } from "~/platform/system";
import type { OrganizationSummary } from "~/platform/system";
import { PAYMENT_MODE_LABELS } from "./org-form";

/** What the last submission left for one row: a refusal to show next to it, and the text typed. */
export interface RowFeedback {
  orgId: number;
  intent: "rename" | "payment-mode";
  ok: boolean;
  message: string;
  name?: string;
}

export function OrgTable({ organizations, canEdit, feedback, timeZone }: { organizations: OrganizationSummary[]; canEdit: boolean; feedback: RowFeedback | null; timeZone: string }) {
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
          </tr>
        </thead>
        <tbody>
          {organizations.map((org) => (
            <tr key={org.id} aria-label={org.name}>
              <td className="font-mono">{org.id}</td>
              <td>{canEdit ? <RenameForm org={org} feedback={feedback?.orgId === org.id ? feedback : null} /> : <span className="font-medium">{org.name}</span>}</td>
              <td className="text-right tabular-nums">{org.memberCount}</td>
              <td>{canEdit ? <PaymentModeForm org={org} feedback={feedback?.orgId === org.id ? feedback : null} /> : PAYMENT_MODE_LABELS[org.paymentMode]}</td>
              <td className="text-right tabular-nums" data-testid={`balance-${org.id}`}>
                {formatBalance(org.balance)}
                {org.paymentMode === "invoice" ? <div className="text-xs text-base-content/60">since last invoice</div> : null}
              </td>
              <td className="whitespace-nowrap text-sm text-base-content/70">{formatDateTime(org.createdAt, timeZone)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function RenameForm({ org, feedback }: { org: OrganizationSummary; feedback: RowFeedback | null }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "rename" && navigation.formData.get("orgId") === String(org.id);
  const refused = feedback?.intent === "rename" && !feedback.ok ? feedback : null;
  const id = `org-name-${org.id}`;
  return (
    <Form method="post" className="flex flex-col gap-1" key={refused ? `refused:${refused.name}` : org.name}>
      <input type="hidden" name="intent" value="rename" />
      <input type="hidden" name="orgId" value={org.id} />
      <div className="flex items-center gap-2">
        <label htmlFor={id} className="sr-only">
          Name of organization {org.id}
        </label>
        <input
          id={id}
          name="name"
          className={`input input-sm w-56 ${refused ? "input-error" : ""}`}
          defaultValue={refused?.name ?? org.name}
          required
          maxLength={100}
          aria-invalid={refused ? true : undefined}
          aria-describedby={refused ? `${id}-error` : undefined}
        />
        <button type="submit" className="btn btn-sm" disabled={busy}>
          {busy ? "Renaming..." : "Rename"}
        </button>
      </div>
      {refused ? (
        <span id={`${id}-error`} className="text-sm text-error">
          {refused.message}
        </span>
      ) : null}
    </Form>
  );
}

const PAYMENT_MODE_OPTIONS = PAYMENT_MODES.map((mode) => ({ value: mode, label: PAYMENT_MODE_LABELS[mode] }));

function PaymentModeForm({ org, feedback }: { org: OrganizationSummary; feedback: RowFeedback | null }) {
  const refused = feedback?.intent === "payment-mode" && !feedback.ok ? feedback : null;
  return (
    <SaveOnChangeSelect
      id={`org-mode-${org.id}`}
      label={`Payment mode of ${org.name}`}
      name="paymentMode"
      intent="payment-mode"
      fields={{ orgId: org.id }}
      options={PAYMENT_MODE_OPTIONS}
      value={org.paymentMode}
      answer={feedback}
      saveLabel="Save mode"
      selectClassName="select select-sm w-48"
    >
      {refused ? <span className="text-sm text-error">{refused.message}</span> : null}
    </SaveOnChangeSelect>
  );
}
