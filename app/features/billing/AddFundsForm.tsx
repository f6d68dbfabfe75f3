import { getFormProps, getInputProps } from "@conform-to/react";
import { useForm } from "~/lib/use-form";
import type { SubmissionResult } from "@conform-to/react";
import { parseForm } from "~/lib/parse-form";
import { Form, Link, useSearchParams } from "@remix-run/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { Alert } from "~/components/Alert";
import { useArrivalKey } from "~/lib/use-arrival";
import { useDialogHref } from "~/components/UrlDialog";
import { useIsPending } from "~/lib/use-is-pending";
import { NoPaymentMethodBanner } from "./NoPaymentMethodBanner";
import { addFundsError, addFundsForm, MAX_AMOUNT, MIN_AMOUNT, QUICK_AMOUNTS } from "./validation";
import { PageOrganizationField } from "~/features/auth/PageOrganizationField";

/**
 * Add funds (conform): quick amounts are links (`?amount=`) before JavaScript loads and set the field
 * after; the button is disabled below the minimum once hydrated (SPEC §5); before, the browser's own `min` stops it and the server says why.
 */
export function AddFundsForm({
  nonce,
  hasPaymentMethod,
  lastResult,
}: {
  nonce: string;
  hasPaymentMethod: boolean;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [params] = useSearchParams();
  const fromUrl = params.get("amount");
  const arrival = useArrivalKey(lastResult);
  const [form, fields] = useForm({
    id: "add-funds",
    lastResult,
    defaultValue: { amount: fromUrl && /^\d+(\.\d+)?$/.test(fromUrl) ? fromUrl : "10" },
    onValidate: ({ formData }) => parseForm(formData, { schema: addFundsForm }),
    shouldRevalidate: "onInput",
  });
  const hydrated = useHydrated();
  const pending = useIsPending({ intent: "add-funds" });
  const amount = String(fields.amount.value ?? "");
  const quickHref = useDialogHref("add-funds");
  // Once hydrated the button is disabled while the amount is wrong (SPEC §5), so no submission would
  // ever say why: the reason shows as the amount is typed.
  const typedError = hydrated && !fields.amount.errors ? addFundsError(amount) : null;
  const fieldError = fields.amount.errors?.[0] ?? typedError ?? undefined;
  const { key, ...amountProps } = getInputProps(fields.amount, {
    type: "number",
    ariaDescribedBy: typedError ? `amount-help ${fields.amount.errorId}` : "amount-help",
  });
  return (
    <Form method="post" className="space-y-4" replace {...getFormProps(form)}>
      <input type="hidden" name="intent" value="add-funds" />
      <PageOrganizationField />
      <input type="hidden" name="nonce" value={nonce} />
      {!hasPaymentMethod && <NoPaymentMethodBanner />}
      <div>
        <p className="mb-2 text-sm font-medium" id="quick-amounts">
          Quick amounts
        </p>
        <div className="flex flex-wrap gap-2" role="group" aria-labelledby="quick-amounts">
          {QUICK_AMOUNTS.map((quick) => {
            const search = new URLSearchParams(quickHref.split("?")[1] ?? "");
            search.set("amount", String(quick));
            return (
              <Link
                key={quick}
                to={`?${search.toString()}`}
                replace
                preventScrollReset
                className={`btn btn-sm ${Number(amount) === quick ? "btn-primary" : "btn-outline"}`}
                aria-current={Number(amount) === quick ? "true" : undefined}
                onClick={(e) => {
                  e.preventDefault();
                  form.update({ name: fields.amount.name, value: String(quick) });
                }}
              >
                ${quick}
              </Link>
            );
          })}
        </div>
      </div>
      <label className="form-control block">
        <span className="mb-1 block text-sm font-medium">Amount (USD)</span>
        <input
          key={key}
          {...amountProps}
          min={MIN_AMOUNT}
          max={MAX_AMOUNT}
          step="0.01"
          required
          aria-invalid={fieldError ? true : undefined}
          className={`input input-bordered w-full ${fieldError ? "input-error" : ""}`}
        />
        <span id="amount-help" className="mt-1 block text-xs text-base-content/60">
          Minimum $10.
        </span>
      </label>
      {fieldError && (
        <p id={fields.amount.errorId} className="text-sm text-error">
          {fieldError}
        </p>
      )}
      {form.errors?.[0] && (
        <Alert key={arrival} kind="error" focus={lastResult !== undefined}>
          <span>{form.errors[0]}</span>
        </Alert>
      )}
      <div className="modal-action">
        <button type="submit" className="btn btn-primary" disabled={!hasPaymentMethod || pending || (hydrated && fieldError !== undefined)}>
          {pending ? "Adding funds…" : "Add funds"}
        </button>
      </div>
    </Form>
  );
}
