import { Form, Link, useNavigation, useSearchParams } from "@remix-run/react";
import { ChevronLeft, ChevronRight, CreditCard, Info, RefreshCw, Wallet } from "lucide-react";
import type { FormEvent } from "react";
import { useEffect, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { ConfirmAction } from "~/components/ConfirmAction";
import { DialogLink, useDialogHref } from "~/components/UrlDialog";
import type { BillingConfig, LedgerRow, PaymentMethodSummary } from "~/platform/billing";
import { describeCard, formatBalance, formatChange, formatLedgerTime } from "./format";
import { BILLING_MESSAGES } from "./messages";
import { addFundsError, autoPaymentDefaults, autoPaymentErrors, autoReloadEnabled, MIN_AMOUNT, QUICK_AMOUNTS } from "./validation";

/** Which intent the page is submitting, for busy labels. */
function usePendingIntent(): string | null {
  const navigation = useNavigation();
  if (navigation.state !== "submitting" && navigation.state !== "loading") return null;
  return (navigation.formData?.get("intent") as string | null) ?? null;
}

export function NoPaymentMethodBanner() {
  return (
    <div role="status" className="alert alert-info">
      <Info className="size-5" aria-hidden />
      <span>{BILLING_MESSAGES.noPaymentMethod}</span>
    </div>
  );
}

export function PaymentMethodCard({ hasPaymentMethod, card }: { hasPaymentMethod: boolean; card: PaymentMethodSummary }) {
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="payment-method-title">
      <div className="card-body">
        <h2 id="payment-method-title" className="card-title">
          <CreditCard className="size-5" aria-hidden /> Payment method
        </h2>
        {hasPaymentMethod ? (
          <>
            <p className="text-lg font-medium">{describeCard(card)}</p>
            <p className="text-sm text-base-content/70">Used for adding funds and auto-payment.</p>
            <div className="card-actions mt-2 justify-end">
              <DialogLink name="payment-method" className="btn btn-outline btn-sm">
                Update
              </DialogLink>
              <ConfirmAction
                label="Remove"
                question={BILLING_MESSAGES.removeQuestion}
                confirmLabel="Yes, remove"
                busyLabel="Removing…"
                intent="remove-payment-method"
              />
            </div>
          </>
        ) : (
          <>
            <p className="text-base-content/70">Set up a card to add funds to your balance and to enable auto-payment.</p>
            <div className="card-actions mt-2 justify-end">
              <DialogLink name="payment-method" className="btn btn-primary btn-sm">
                Set up payment method
              </DialogLink>
            </div>
          </>
        )}
      </div>
    </section>
  );
}

export function BalanceCard({ balance, config, hasPaymentMethod }: { balance: number | null; config: BillingConfig; hasPaymentMethod: boolean }) {
  const invoice = config.paymentMode === "invoice";
  const enabled = autoReloadEnabled(config);
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="balance-title">
      <div className="card-body">
        <h2 id="balance-title" className="card-title">
          <Wallet className="size-5" aria-hidden /> {invoice ? "Since Last Invoice" : "Current Balance"}
        </h2>
        {balance === null ? (
          <div role="alert" className="alert alert-error">
            <span>{BILLING_MESSAGES.balanceFailed}</span>
          </div>
        ) : (
          <p className="text-4xl font-bold tabular-nums" data-testid="balance">
            {formatBalance(invoice ? Math.abs(balance) : balance)}
          </p>
        )}
        {invoice ? (
          <p className="text-sm text-base-content/70">Usage is billed by invoice.</p>
        ) : (
          <>
            <div className="card-actions">
              <DialogLink name="add-funds" className="btn btn-primary btn-sm" disabled={!hasPaymentMethod}>
                Add funds
              </DialogLink>
            </div>
            <div className="divider my-1" />
            <div className="flex flex-wrap items-center justify-between gap-3">
              <div>
                <p className="flex items-center gap-2 font-medium">
                  <RefreshCw className="size-4" aria-hidden /> Auto-reload:{" "}
                  <span className={`badge ${enabled ? "badge-success" : "badge-ghost"}`}>{enabled ? "Enabled" : "Disabled"}</span>
                </p>
                {enabled && config.autoPaymentConfig && (
                  <p className="mt-1 text-sm text-base-content/70">
                    Adds {formatBalance(config.autoPaymentConfig.rechargeAmount)} when the balance falls below {formatBalance(config.autoPaymentConfig.thresholdAmount)}.
                  </p>
                )}
              </div>
              <DialogLink name="auto-payment" className="btn btn-outline btn-sm" disabled={!hasPaymentMethod}>
                Configure
              </DialogLink>
            </div>
          </>
        )}
      </div>
    </section>
  );
}

export interface LedgerPage {
  rows: LedgerRow[] | null;
  olderCursor: number | null;
  newerCursor: number | null;
}

export function LedgerTable({ page, timeZone }: { page: LedgerPage; timeZone: string }) {
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="ledger-title">
      <div className="card-body">
        <h2 id="ledger-title" className="card-title">
          Activity
        </h2>
        {page.rows === null ? (
          <div role="alert" className="alert alert-error">
            <span>{BILLING_MESSAGES.ledgerFailed}</span>
          </div>
        ) : page.rows.length === 0 ? (
          <p className="py-6 text-center text-base-content/70">{BILLING_MESSAGES.emptyLedger}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Timestamp</th>
                  <th scope="col">Description</th>
                  <th scope="col">Model</th>
                  <th scope="col">Rate card</th>
                  <th scope="col" className="text-right">
                    Change
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.rows.map((row) => (
                  <tr key={row.id}>
                    <td className="whitespace-nowrap tabular-nums">{formatLedgerTime(row.timestamp, timeZone)}</td>
                    <td>{row.description}</td>
                    <td>{row.model ?? "—"}</td>
                    <td>{row.rateCardId ?? "—"}</td>
                    <td className={`text-right tabular-nums font-medium ${row.change < 0 ? "text-error" : "text-success"}`}>{formatChange(row.change)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {(page.newerCursor !== null || page.olderCursor !== null) && (
          <nav className="join mt-2 self-end" aria-label="Ledger pages">
            {page.newerCursor !== null ? (
              <Link className="join-item btn btn-sm" to={`?after=${page.newerCursor}`} preventScrollReset>
                <ChevronLeft className="size-4" aria-hidden /> Previous
              </Link>
            ) : (
              <button type="button" className="join-item btn btn-sm" disabled>
                <ChevronLeft className="size-4" aria-hidden /> Previous
              </button>
            )}
            {page.olderCursor !== null ? (
              <Link className="join-item btn btn-sm" to={`?before=${page.olderCursor}`} preventScrollReset>
                Next <ChevronRight className="size-4" aria-hidden />
              </Link>
            ) : (
              <button type="button" className="join-item btn btn-sm" disabled>
                Next <ChevronRight className="size-4" aria-hidden />
              </button>
            )}
          </nav>
        )}
      </div>
    </section>
  );
}

export interface FormResult {
  ok: false;
  intent: string;
  message?: string;
  fieldErrors?: Record<string, string>;
  values?: Record<string, string>;
}

export function AddFundsForm({ nonce, hasPaymentMethod, result }: { nonce: string; hasPaymentMethod: boolean; result: FormResult | null }) {
  const [params] = useSearchParams();
  const hydrated = useHydrated();
  const pending = usePendingIntent() === "add-funds";
  const fromUrl = params.get("amount");
  const initial = result?.values?.amount ?? (fromUrl && /^\d+(\.\d+)?$/.test(fromUrl) ? fromUrl : "10");
  const [amount, setAmount] = useState(initial);
  useEffect(() => setAmount(initial), [initial]);
  const invalid = addFundsError(amount) !== null;
  const quickHref = useDialogHref("add-funds");
  return (
    <Form method="post" className="space-y-4" replace>
      <input type="hidden" name="intent" value="add-funds" />
      <input type="hidden" name="nonce" value={nonce} />
      {!hasPaymentMethod && <NoPaymentMethodBanner />}
      <div>
        <p className="mb-2 text-sm font-medium" id="quick-amounts">
          Quick amounts
        </p>
        <div className="flex gap-2" role="group" aria-labelledby="quick-amounts">
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
                aria-pressed={Number(amount) === quick}
                onClick={(e) => {
                  e.preventDefault();
                  setAmount(String(quick));
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
          type="number"
          name="amount"
          min={MIN_AMOUNT}
          max={10000}
          step="0.01"
          required
          className={`input input-bordered w-full ${result?.fieldErrors?.amount ? "input-error" : ""}`}
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          aria-describedby="amount-help"
        />
        <span id="amount-help" className="mt-1 block text-xs text-base-content/60">
          Minimum $10.
        </span>
      </label>
      {result?.fieldErrors?.amount && <p className="text-sm text-error">{result.fieldErrors.amount}</p>}
      {result?.message && (
        <div role="alert" className="alert alert-error">
          <span>{result.message}</span>
        </div>
      )}
      <div className="modal-action">
        <button type="submit" className="btn btn-primary" disabled={!hasPaymentMethod || pending || (hydrated && invalid)}>
          {pending ? "Adding funds…" : "Add funds"}
        </button>
      </div>
    </Form>
  );
}

export function AutoPaymentForm({ config, result }: { config: BillingConfig; result: FormResult | null }) {
  const hydrated = useHydrated();
  const pending = usePendingIntent() === "auto-payment";
  const defaults = autoPaymentDefaults(config.autoPaymentConfig);
  const [enabled, setEnabled] = useState(result?.values ? result.values.enabled === "on" : defaults.enabled);
  const [threshold, setThreshold] = useState(result?.values?.thresholdAmount ?? String(defaults.thresholdAmount));
  const [recharge, setRecharge] = useState(result?.values?.rechargeAmount ?? String(defaults.rechargeAmount));
  const [checked, setChecked] = useState(false);
  const live = autoPaymentErrors({ enabled, thresholdAmount: threshold, rechargeAmount: recharge });
  const errors = hydrated && checked ? live : (result?.fieldErrors ?? {});

  function submit(event: FormEvent) {
    setChecked(true);
    if (Object.keys(live).length > 0) event.preventDefault();
  }

  return (
    <Form method="post" className="space-y-4" onSubmit={submit} noValidate replace>
      <input type="hidden" name="intent" value="auto-payment" />
      <label className="flex cursor-pointer items-center gap-3">
        <input type="checkbox" name="enabled" className="toggle toggle-primary" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        <span className="font-medium">Enable auto-payment</span>
      </label>
      <p className="text-sm text-base-content/70">When your balance falls below the threshold, your card is charged the recharge amount.</p>
      <AmountField
        label="Threshold amount (USD)"
        name="thresholdAmount"
        value={threshold}
        error={errors.thresholdAmount}
        onChange={(value) => {
          setThreshold(value);
          setChecked(true);
        }}
      />
      <AmountField
        label="Recharge amount (USD)"
        name="rechargeAmount"
        value={recharge}
        error={errors.rechargeAmount}
        onChange={(value) => {
          setRecharge(value);
          setChecked(true);
        }}
      />
      {result?.message && (
        <div role="alert" className="alert alert-error">
          <span>{result.message}</span>
        </div>
      )}
      <div className="modal-action">
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending ? "Saving…" : "Save"}
        </button>
      </div>
    </Form>
  );
}

/** A dollar amount input with its field error beside it (the server's message, kept with the typed value). */
function AmountField({ label, name, value, error, onChange }: { label: string; name: string; value: string; error?: string; onChange: (value: string) => void }) {
  return (
    <label className="block">
      <span className="mb-1 block text-sm font-medium">{label}</span>
      <input
        type="number"
        name={name}
        step="0.01"
        className={`input input-bordered w-full ${error ? "input-error" : ""}`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={Boolean(error)}
      />
      {error && <span className="mt-1 block text-sm text-error">{error}</span>}
    </label>
  );
}
