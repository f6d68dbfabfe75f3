import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { RefreshCw, Wallet } from "lucide-react";
import { Alert } from "~/components/Alert";
import { DialogLink } from "~/components/UrlDialog";
import { useArrivalKey } from "~/lib/use-arrival";
import { useIsPending } from "~/lib/use-is-pending";
import type { BillingConfig } from "~/platform/billing";
import { formatMoney } from "@contract/money";
import { invoiceCreditText, sinceLastInvoice } from "./format";
import { BILLING_MESSAGES } from "./messages";
import { rechargeLimitText } from "./recharge";
import { autoReloadEnabled } from "./validation";
import { PageOrganizationField } from "~/features/auth/PageOrganizationField";

/**
 * The balance (or the amount since the last invoice), Add funds, and the auto-reload summary. Auto-reload
 * that is on while there is no card reads Paused and can be turned off here, since Configure needs a card
 * (issue 14, decision 0091).
 *
 * `config` is null when the billing configuration could not be loaded: the mode is then unknown, and so
 * is how to read the balance (SPEC §2: invoice mode shows the amount since the last invoice), whether
 * Add funds applies, and whether auto-reload is on. The card says so and offers none of them, rather than
 * guess "manual, auto-reload off" (a save from that guess turned auto-payment off).
 */
export function BalanceCard({
  balance,
  config,
  hasPaymentMethod,
  rechargesPerDay = null,
  turnOffResult,
}: {
  balance: number | null;
  config: BillingConfig | null;
  hasPaymentMethod: boolean;
  /** The daily limit of automatic recharges, when known. */
  rechargesPerDay?: number | null;
  /** The action's answer to "Turn off auto-reload" (this card's form), when it was refused. */
  turnOffResult?: SubmissionResult<string[]>;
}) {
  if (config === null) return <BalanceCardWithoutConfig />;
  const invoice = config.paymentMode === "invoice";
  const enabled = autoReloadEnabled(config);
  const paused = enabled && !hasPaymentMethod;
  const invoiced = invoice && balance !== null ? sinceLastInvoice(balance) : null;
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="balance-title">
      <div className="card-body">
        <h2 id="balance-title" className="card-title">
          <Wallet className="size-5" aria-hidden /> {invoice ? "Since Last Invoice" : "Current Balance"}
        </h2>
        {balance === null ? (
          <Alert kind="error">
            <span>{BILLING_MESSAGES.balanceFailed}</span>
          </Alert>
        ) : (
          <p className="text-4xl font-bold tabular-nums" data-testid="balance">
            {formatMoney(invoiced ? invoiced.owed : balance)}
          </p>
        )}
        {invoice ? (
          <>
            {invoiced && invoiced.credit > 0 ? (
              <p className="font-medium" data-testid="invoice-credit">
                {invoiceCreditText(invoiced.credit)}
              </p>
            ) : null}
            <p className="text-sm text-base-content/70">Usage is billed by invoice.</p>
          </>
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
                  <span className={`badge ${paused ? "badge-warning" : enabled ? "badge-success" : "badge-ghost"}`}>
                    {paused ? "Paused" : enabled ? "Enabled" : "Disabled"}
                  </span>
                </p>
                {paused && <p className="mt-1 text-sm">{BILLING_MESSAGES.autoReloadPaused}</p>}
                {enabled && config.autoPaymentConfig && (
                  <p className="mt-1 text-sm text-base-content/70">
                    Adds {formatMoney(config.autoPaymentConfig.rechargeAmount)} when the balance falls below{" "}
                    {formatMoney(config.autoPaymentConfig.thresholdAmount)}.
                  </p>
                )}
                {rechargesPerDay !== null && <p className="mt-1 text-sm text-base-content/70">{rechargeLimitText(rechargesPerDay)}.</p>}
              </div>
              <div className="flex flex-wrap gap-2">
                {paused && <TurnOffAutoReload />}
                <DialogLink name="auto-payment" className="btn btn-outline btn-sm" disabled={!hasPaymentMethod}>
                  Configure
                </DialogLink>
              </div>
            </div>
            <TurnOffRefusal result={turnOffResult} />
          </>
        )}
      </div>
    </section>
  );
}

function BalanceCardWithoutConfig() {
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="balance-title">
      <div className="card-body">
        <h2 id="balance-title" className="card-title">
          <Wallet className="size-5" aria-hidden /> Balance
        </h2>
        <Alert kind="error">
          <span>{BILLING_MESSAGES.configFailed}</span>
        </Alert>
        <p className="text-sm text-base-content/70">Funds and auto-reload can be managed once it loads. Reload the page to try again.</p>
      </div>
    </section>
  );
}

/** The hidden field that tells the action a refusal belongs to this card's button, not to the Configure dialog. */
export const TURN_OFF_FORM = { name: "from", value: "turn-off-auto-reload" } as const;

/** Without a card the Configure dialog stays closed; turning off needs no amounts (the platform keeps them). Works without JavaScript. */
function TurnOffAutoReload() {
  const pending = useIsPending({ intent: "auto-payment" });
  return (
    <Form method="post" replace preventScrollReset>
      <input type="hidden" name="intent" value="auto-payment" />
      <input type="hidden" name={TURN_OFF_FORM.name} value={TURN_OFF_FORM.value} />
      <PageOrganizationField />
      <button type="submit" className="btn btn-warning btn-sm" disabled={pending}>
        {pending ? "Turning off…" : "Turn off auto-reload"}
      </button>
    </Form>
  );
}

/**
 * A refused "Turn off auto-reload" (SPEC §8: the server's error or 'Failed to save auto-payment
 * settings'), shown beside the button and focused on arrival, with or without JavaScript: the Configure
 * dialog, where the auto-payment form shows its errors, is closed.
 */
function TurnOffRefusal({ result }: { result: SubmissionResult<string[]> | undefined }) {
  const arrival = useArrivalKey(result);
  const message = result?.error?.[""]?.[0];
  if (!message) return null;
  return (
    <Alert key={arrival} kind="error" focus>
      <span>{message}</span>
    </Alert>
  );
}
