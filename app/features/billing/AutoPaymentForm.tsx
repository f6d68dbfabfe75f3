import { getFormProps, getInputProps } from "@conform-to/react";
import { useForm } from "~/lib/use-form";
import type { FieldMetadata, SubmissionResult } from "@conform-to/react";
import { parseForm } from "~/lib/parse-form";
import { Form } from "@remix-run/react";
import { MIN_AMOUNT } from "@contract/billing";
import { formatMoney } from "@contract/money";
import { Alert } from "~/components/Alert";
import { useArrivalKey } from "~/lib/use-arrival";
import { useIsPending } from "~/lib/use-is-pending";
import type { BillingConfig } from "~/platform/billing";
import { autoPaymentDefaults, autoPaymentForm } from "./validation";
import { PageOrganizationField } from "~/features/auth/PageOrganizationField";

/**
 * Auto-payment (conform): the amounts are checked only when enabled, next to each field (SPEC §5).
 * `funds` (null: unknown) lets it say, before saving, that the save itself charges the card.
 */
export function AutoPaymentForm({
  config,
  funds,
  lastResult,
}: {
  config: BillingConfig;
  funds: Funds | null;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const defaults = autoPaymentDefaults(config);
  const arrival = useArrivalKey(lastResult);
  const [form, fields] = useForm({
    id: "auto-payment",
    lastResult,
    defaultValue: {
      enabled: defaults.enabled ? "on" : undefined,
      thresholdAmount: String(defaults.thresholdAmount),
      rechargeAmount: String(defaults.rechargeAmount),
    },
    onValidate: ({ formData }) => parseForm(formData, { schema: autoPaymentForm }),
    shouldRevalidate: "onInput",
  });
  const pending = useIsPending({ intent: "auto-payment" });
  const { key: enabledKey, ...enabledProps } = getInputProps(fields.enabled, { type: "checkbox" });
  return (
    <Form method="post" className="space-y-4" replace {...getFormProps(form)}>
      <input type="hidden" name="intent" value="auto-payment" />
      <PageOrganizationField />
      <label className="flex cursor-pointer items-center gap-3">
        <input key={enabledKey} {...enabledProps} className="toggle toggle-primary" />
        <span className="font-medium">Enable auto-payment</span>
      </label>
      <p className="text-sm text-base-content/70">
        When your balance falls below the threshold, your card is charged the recharge amount; if it is already below, or nothing is left, when you save, at
        once.
      </p>
      <AmountField label="Threshold amount (USD)" field={fields.thresholdAmount} />
      <AmountField label="Recharge amount (USD)" field={fields.rechargeAmount} />
      <ChargeOnSave
        funds={funds}
        enabled={fields.enabled.value === "on"}
        threshold={Number(fields.thresholdAmount.value)}
        recharge={Number(fields.rechargeAmount.value)}
      />
      {form.errors?.[0] && (
        <Alert key={arrival} kind="error" focus={lastResult !== undefined}>
          <span>{form.errors[0]}</span>
        </Alert>
      )}
      <div className="modal-action">
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending ? "Saving…" : "Save"}
        </button>
      </div>
    </Form>
  );
}

/** The balance, and what running requests hold of it until they are metered (the spend cap's `reserved`). */
export type Funds = { balance: number; held: number };

/**
 * Said as the figures are typed: saving with what can be spent already under the threshold charges the
 * card the recharge amount right away (the platform starts the recharge on save), which a first-time
 * admin accepting the suggested amounts would not expect.
 */
function ChargeOnSave({ funds, enabled, threshold, recharge }: { funds: Funds | null; enabled: boolean; threshold: number; recharge: number }) {
  // A polite region that stays: the figures change as they are typed, and an alert interrupted each keystroke.
  return (
    <div role="status" className="empty:m-0">
      {funds === null ? null : <ChargeWarning funds={funds} enabled={enabled} threshold={threshold} recharge={recharge} />}
    </div>
  );
}

function ChargeWarning({ funds, enabled, threshold, recharge }: { funds: Funds; enabled: boolean; threshold: number; recharge: number }) {
  // The platform's rule (claimRecharge): what can be spent (the balance less what running requests
  // hold) under the threshold, or nothing left at all (a $0 threshold); and only a save it takes (a
  // recharge of at least the minimum).
  const spendable = funds.balance - funds.held;
  const below = Number.isFinite(threshold) && (spendable < threshold || spendable <= 0);
  const charges = enabled && below && Number.isFinite(recharge) && recharge >= MIN_AMOUNT;
  if (!charges) return null;
  const what = funds.held > 0 ? `What you can spend (${formatMoney(spendable)}: your balance less ${formatMoney(funds.held)} held by running requests)` : null;
  const why =
    spendable < threshold
      ? `${what ?? `Your balance (${formatMoney(spendable)})`} is below the threshold`
      : what !== null
        ? `${what} is nothing`
        : `Your balance is ${formatMoney(spendable)}`;
  return (
    <Alert kind="warning" live={false}>
      <span>
        {why}: saving charges your card {formatMoney(recharge)} now.
      </span>
    </Alert>
  );
}

/** A dollar amount input with its field error beside it (the server's message, kept with the typed value). */
function AmountField({ label, field }: { label: string; field: FieldMetadata<unknown> }) {
  const error = field.errors?.[0];
  const { key, ...props } = getInputProps(field, { type: "number" });
  return (
    <label className="block">
      <span className="mb-1 block text-sm font-medium">{label}</span>
      <input key={key} {...props} step="0.01" className={`input input-bordered w-full ${error ? "input-error" : ""}`} />
      {error && (
        <span id={field.errorId} className="mt-1 block text-sm text-error">
          {error}
        </span>
      )}
    </label>
  );
}
