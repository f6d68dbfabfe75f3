import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ClientOnly } from "remix-utils/client-only";
import { UrlDialog, useDialogHref } from "~/components/UrlDialog";
import type { FormResult, LedgerPage } from "~/features/billing/components";
import { AddFundsForm, AutoPaymentForm, BalanceCard, LedgerTable, NoPaymentMethodBanner, PaymentMethodCard } from "~/features/billing/components";
import { BILLING_MESSAGES, SETUP_MESSAGES } from "~/features/billing/messages";
import { PaymentMethodSetup } from "~/features/billing/PaymentMethodSetup";
import { addFundsError, autoPaymentErrors, autoPaymentForm, readSetupReturn } from "~/features/billing/validation";
import { useTimeZone } from "~/lib/use-time-zone";
import { billingApi } from "~/platform/billing.server";
import type { BillingConfig } from "~/platform/billing";
import { requireAccess } from "~/session.server";
import { toastHeader } from "~/toast.server";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Billing" };
export const meta: MetaFunction = () => [{ title: "Billing · AI Console" }];

const PAGE = 50;

function cursor(value: string | null): number | undefined {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : undefined;
}

async function redirectWithToast(headers: Headers, toast: Parameters<typeof toastHeader>[0], to = "/billing") {
  headers.append("Set-Cookie", await toastHeader(toast));
  return redirect(to, { headers });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { session, api } = await requireAccess("organization", request, context);
  const billing = billingApi(api);
  const url = new URL(request.url);

  // The return from the card form's redirect (SPEC §4): record the setup now, say so, reset the URL.
  const setupReturn = readSetupReturn(url.searchParams);
  if (setupReturn.kind !== "none") {
    if (setupReturn.kind === "failed") return redirectWithToast(api.headers, { kind: "error", message: SETUP_MESSAGES.addFailed });
    const recorded = await billing.confirmSetup(setupReturn.setupIntentId);
    return redirectWithToast(api.headers, recorded.ok ? { kind: "success", message: SETUP_MESSAGES.added } : { kind: "error", message: SETUP_MESSAGES.updateFailed });
  }

  const before = cursor(url.searchParams.get("before"));
  const after = before === undefined ? cursor(url.searchParams.get("after")) : undefined;
  const [balance, ledger, config, paymentMethod, stripe] = await Promise.all([
    billing.balance(),
    billing.ledger({ before, after, limit: PAGE + 1 }),
    billing.config(),
    billing.paymentMethod(),
    billing.stripeConfig(),
  ]);

  let page: LedgerPage = { rows: null, olderCursor: null, newerCursor: null };
  if (ledger.ok) {
    let rows = ledger.data;
    let hasOlder = false;
    let hasNewer = before !== undefined;
    if (after !== undefined) {
      // Rows newer than `after`, newest first: one extra at the top means a newer page exists.
      hasOlder = true;
      if (rows.length > PAGE) {
        hasNewer = true;
        rows = rows.slice(rows.length - PAGE);
      }
    } else if (rows.length > PAGE) {
      hasOlder = true;
      rows = rows.slice(0, PAGE);
    }
    page = { rows, olderCursor: hasOlder && rows.length ? rows[rows.length - 1].id : null, newerCursor: hasNewer && rows.length ? rows[0].id : null };
  }

  const fallbackConfig: BillingConfig = { paymentMode: "manual", autoPaymentConfig: null };
  return data(
    {
      hasPaymentMethod: session.activeOrganization.hasPaymentMethod,
      card: paymentMethod.ok ? paymentMethod.data.paymentMethod : null,
      balance: balance.ok ? balance.data : null,
      config: config.ok ? config.data : fallbackConfig,
      page,
      stripePublicKey: stripe.ok ? stripe.data.stripePublicKey : null,
      // Rendered into the add-funds form: a double submit carries the same key, so it is one charge.
      nonce: crypto.randomUUID(),
    },
    { headers: api.headers },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireAccess("organization", request, context);
  const billing = billingApi(api);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const values = Object.fromEntries([...form].filter(([, v]) => typeof v === "string")) as Record<string, string>;

  if (intent === "add-funds") {
    const problem = addFundsError(values.amount);
    if (problem) return data<FormResult>({ ok: false, intent, fieldErrors: { amount: problem }, values }, { status: 400 });
    const result = await billing.addFunds(Number(values.amount), values.nonce || undefined);
    if (!result.ok) return data<FormResult>({ ok: false, intent, message: result.error || BILLING_MESSAGES.addFundsFailed, values }, { status: result.status >= 500 ? 502 : 400, headers: api.headers });
    return redirectWithToast(api.headers, { kind: "success", message: BILLING_MESSAGES.addFundsOk });
  }

  if (intent === "auto-payment") {
    const parsed = autoPaymentForm.parse(values);
    const fieldErrors = autoPaymentErrors(parsed);
    if (Object.keys(fieldErrors).length > 0) return data<FormResult>({ ok: false, intent, fieldErrors, values }, { status: 400 });
    const enabled = parsed.enabled;
    const result = await billing.saveAutoPayment({
      enabled,
      thresholdAmount: Number(parsed.thresholdAmount) || 0,
      rechargeAmount: Number(parsed.rechargeAmount) || 0,
    });
    if (!result.ok) return data<FormResult>({ ok: false, intent, message: result.error || BILLING_MESSAGES.autoPaymentFailed, values }, { status: 400, headers: api.headers });
    return redirectWithToast(api.headers, { kind: "success", message: BILLING_MESSAGES.autoPaymentOk });
  }

  if (intent === "remove-payment-method") {
    const result = await billing.removePaymentMethod();
    if (!result.ok) return redirectWithToast(api.headers, { kind: "error", message: BILLING_MESSAGES.removeFailed });
    // SPEC §4: wait 1 second, then the redirect reloads the session and shows the success.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return redirectWithToast(api.headers, { kind: "success", message: BILLING_MESSAGES.removeOk });
  }

  return data<FormResult>({ ok: false, intent, message: "Unknown action" }, { status: 400 });
}

export default function BillingPage() {
  const { hasPaymentMethod, card, balance, config, page, stripePublicKey, nonce } = useLoaderData<typeof loader>();
  const result = (useActionData<typeof action>() as FormResult | undefined) ?? null;
  const timeZone = useTimeZone();
  const closeHref = useDialogHref(null);
  return (
    <div className="space-y-6">
      {!hasPaymentMethod && <NoPaymentMethodBanner />}
      <div className="grid gap-6 md:grid-cols-2">
        <PaymentMethodCard hasPaymentMethod={hasPaymentMethod} card={card} />
        <BalanceCard balance={balance} config={config} hasPaymentMethod={hasPaymentMethod} />
      </div>
      <LedgerTable page={page} timeZone={timeZone} />

      {config.paymentMode !== "invoice" && (
        <>
          <UrlDialog name="add-funds" title="Add funds">
            <AddFundsForm nonce={nonce} hasPaymentMethod={hasPaymentMethod} result={result?.intent === "add-funds" ? result : null} />
          </UrlDialog>
          <UrlDialog name="auto-payment" title="Auto-payment">
            <AutoPaymentForm config={config} result={result?.intent === "auto-payment" ? result : null} />
          </UrlDialog>
        </>
      )}
      <UrlDialog name="payment-method" title={hasPaymentMethod ? "Update payment method" : "Set up payment method"}>
        <ClientOnly fallback={<p className="text-base-content/70">The card form needs JavaScript. Please enable it to add a card.</p>}>
          {() => <PaymentMethodSetup publishableKey={stripePublicKey} onCancelHref={closeHref} />}
        </ClientOnly>
      </UrlDialog>
    </div>
  );
}
