import { Form, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { formatBalance } from "~/features/billing/format";
import { formatDateTime } from "~/lib/datetime";
import { PAYMENT_MODES } from "~/platform/system";
import type { OrganizationSummary, PaymentMode } from "~/platform/system";
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

/** A select that saves on change once hydrated; before that, its own submit button does. */
function PaymentModeForm({ org, feedback }: { org: OrganizationSummary; feedback: RowFeedback | null }) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  const navigation = useNavigation();
  const [value, setValue] = useState<PaymentMode>(org.paymentMode);
  // After any answer (a refusal included) show what the server holds.
  useEffect(() => setValue(org.paymentMode), [org.paymentMode, feedback]);
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === "payment-mode" && navigation.formData.get("orgId") === String(org.id);
  const refused = feedback?.intent === "payment-mode" && !feedback.ok ? feedback : null;
  const id = `org-mode-${org.id}`;
  return (
    <Form method="post" className="flex flex-col gap-1" onChange={(e) => hydrated && submit(e.currentTarget, { preventScrollReset: true })}>
      <input type="hidden" name="intent" value="payment-mode" />
      <input type="hidden" name="orgId" value={org.id} />
      <div className="flex items-center gap-2">
        <label htmlFor={id} className="sr-only">
          Payment mode of {org.name}
        </label>
        <select id={id} name="paymentMode" className="select select-sm w-48" value={value} onChange={(e) => setValue(e.target.value as PaymentMode)} aria-busy={pending}>
          {PAYMENT_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {PAYMENT_MODE_LABELS[mode]}
            </option>
          ))}
        </select>
        {hydrated ? null : (
          <button type="submit" className="btn btn-sm">
            Save mode
          </button>
        )}
        {pending ? (
          <span className="flex items-center gap-1 text-sm text-base-content/70" role="status">
            <span className="loading loading-spinner loading-xs" aria-hidden /> Saving...
          </span>
        ) : null}
      </div>
      {refused ? <span className="text-sm text-error">{refused.message}</span> : null}
    </Form>
  );
}
