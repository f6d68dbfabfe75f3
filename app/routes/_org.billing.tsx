import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ClientOnly } from "remix-utils/client-only";
import { UrlDialog } from "~/components/UrlDialog";
import type { SubmissionResult } from "@conform-to/react";
import { parseForm } from "~/lib/parse-form";
import { AddFundsForm } from "~/features/billing/AddFundsForm";
import { AutoPaymentForm } from "~/features/billing/AutoPaymentForm";
import { BalanceCard, TURN_OFF_FORM } from "~/features/billing/BalanceCard";
import { LedgerExport } from "~/features/billing/LedgerExport";
import { takeExportRefusal } from "~/features/billing/ledger-export.server";
import { LedgerTable } from "~/features/billing/LedgerTable";
import type { LedgerPage } from "~/features/billing/ledger-page";
import { LEDGER_PAGE_SIZE, ledgerPage } from "~/features/billing/ledger-page";
import { pageCursor } from "~/lib/keyset-page";
import { BILLING_MESSAGES, SETUP_MESSAGES } from "~/features/billing/messages";
import { NoPaymentMethodBanner } from "~/features/billing/NoPaymentMethodBanner";
import { PAYMENT_METHOD_DIALOG, PaymentMethodCard } from "~/features/billing/PaymentMethodCard";
import { PaymentMethodSetup } from "~/features/billing/PaymentMethodSetup";
import { RechargeDeclinedBanner, RechargePausedBanner } from "~/features/billing/RechargePausedBanner";
import { SpendCapForm } from "~/features/billing/SpendCapForm";
import { loadSpendCap, spendCapAction } from "~/features/billing/spend-cap.server";
import { addFundsForm, autoPaymentForm, readSetupReturn } from "~/features/billing/validation";
import { readForm, redirectWithToast } from "~/lib/actions.server";
import { useTimeZone } from "~/lib/use-time-zone";
import { billingApi } from "~/platform/billing.server";
import { requireAccess } from "~/session.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "Billing" };

/** Every answer of this page goes back to /billing, with a toast (decision 0081). */
const toBilling = (headers: Headers, kind: "success" | "error", message: string) => redirectWithToast("/billing", { kind, message }, { headers });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { session, api } = await requireAccess("organization", request, context);
  const billing = billingApi(api);
  const url = new URL(request.url);

  // The return from the card form's redirect (SPEC §4): record the setup now, say so, reset the URL.
  const setupReturn = readSetupReturn(url.searchParams);
  if (setupReturn.kind !== "none") {
    if (setupReturn.kind === "failed") return toBilling(api.headers, "error", SETUP_MESSAGES.addFailed);
    const recorded = await billing.confirmSetup(setupReturn.setupIntentId);
    return recorded.ok ? toBilling(api.headers, "success", SETUP_MESSAGES.added) : toBilling(api.headers, "error", SETUP_MESSAGES.updateFailed);
  }

  const before = pageCursor(url.searchParams.get("before"));
  const after = before === undefined ? pageCursor(url.searchParams.get("after")) : undefined;
  const spendCap = loadSpendCap(api);
  const [balance, ledger, config, paymentMethod, stripe, recharges] = await Promise.all([
    billing.balance(),
    billing.ledger({ before, after, limit: LEDGER_PAGE_SIZE + 1 }),
    billing.config(),
    billing.paymentMethod(),
    // Only the card form uses Stripe's key; opening its dialog changes the URL, which loads this again.
    url.searchParams.get("dialog") === PAYMENT_METHOD_DIALOG ? billing.stripeConfig() : null,
    billing.recharges(),
  ]);
  // A refused ledger export, shown once beside its form (ledger-export.server.ts).
  const exportRefusal = await takeExportRefusal(request);
  const headers = new Headers(api.headers);
  if (exportRefusal.header) headers.append("Set-Cookie", exportRefusal.header);
  const page: LedgerPage = ledger.ok ? ledgerPage(ledger.data, { before, after }) : { rows: null, olderCursor: null, newerCursor: null };

  return data(
    {
      hasPaymentMethod: session.activeOrganization.hasPaymentMethod,
      card: paymentMethod.ok ? paymentMethod.data.paymentMethod : null,
      balance: balance.ok ? balance.data : null,
      // Null when it could not be loaded: the page then offers nothing that depends on the mode (no guess).
      config: config.ok ? config.data : null,
      page,
      stripePublicKey: stripe?.ok ? stripe.data.stripePublicKey : null,
      recharges: recharges.ok ? recharges.data : null,
      // Rendered into the add-funds form: a double submit carries the same key, so it is one charge.
      nonce: crypto.randomUUID(),
      spendCap: await spendCap,
      now: Date.now(),
      isAdmin: session.activeRole === "admin",
      exportRefusal: exportRefusal.refusal,
    },
    { headers },
  );
}

/** A refused add-funds or auto-payment form: conform's answer (field errors, the typed values). */
export type BillingActionResult = {
  intent: "add-funds" | "auto-payment";
  result: SubmissionResult<string[]>;
  /**
   * The nonce the form sends next. After an unknown outcome the same one, so trying again is the same
   * charge (reconciliation asks again with its key); after a refusal a new one: that charge is over, and
   * its key would only replay the refusal (a declined card stayed declined until a reload, since a
   * refused action does not load the page's data again).
   */
  nextNonce?: string;
  /** Set when the balance card's "Turn off auto-reload" sent it: its refusal shows there, not in the closed dialog. */
  from?: typeof TURN_OFF_FORM.value;
};

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireAccess("organization", request, context);
  const billing = billingApi(api);
  const formData = await readForm(request);
  const intent = formData.get("intent");

  if (intent === "add-funds") {
    const submission = parseForm(formData, { schema: addFundsForm });
    if (submission.status !== "success") return data<BillingActionResult>({ intent, result: submission.reply() }, 400);
    const result = await billing.addFunds(submission.value.amount, submission.value.nonce || undefined);
    if (!result.ok) {
      return data<BillingActionResult>(
        {
          intent,
          result: submission.reply({ formErrors: [result.error || BILLING_MESSAGES.addFundsFailed] }),
          // Unreachable provider: the charge may still be made, and a new nonce would make a retry a second one.
          nextNonce: result.status >= 500 ? submission.value.nonce || undefined : crypto.randomUUID(),
        },
        { status: result.status >= 500 ? 502 : 400, headers: api.headers },
      );
    }
    return toBilling(api.headers, "success", BILLING_MESSAGES.addFundsOk);
  }

  if (intent === "auto-payment") {
    const from = formData.get(TURN_OFF_FORM.name) === TURN_OFF_FORM.value ? TURN_OFF_FORM.value : undefined;
    const submission = parseForm(formData, { schema: autoPaymentForm });
    if (submission.status !== "success") return data<BillingActionResult>({ intent, from, result: submission.reply() }, 400);
    const result = await billing.saveAutoPayment(submission.value);
    if (!result.ok)
      return data<BillingActionResult>(
        { intent, from, result: submission.reply({ formErrors: [result.error || BILLING_MESSAGES.autoPaymentFailed] }) },
        { status: 400, headers: api.headers },
      );
    return toBilling(api.headers, "success", BILLING_MESSAGES.autoPaymentOk);
  }

  if (intent === "spend-cap") return spendCapAction(formData, api);

  if (intent === "remove-payment-method") {
    const result = await billing.removePaymentMethod();
    if (!result.ok) return toBilling(api.headers, "error", BILLING_MESSAGES.removeFailed);
    // SPEC §4: wait 1 second, then the redirect reloads the session and shows the success.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return toBilling(api.headers, "success", BILLING_MESSAGES.removeOk);
  }

  throw data({ error: "Unknown action" }, { status: 400 });
}

export default function BillingPage() {
  const { hasPaymentMethod, card, balance, config, page, stripePublicKey, nonce, recharges, spendCap, now, isAdmin, exportRefusal } =
    useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const timeZone = useTimeZone();
  const autoPaymentAnswer = answer?.intent === "auto-payment" ? answer : undefined;
  return (
    <div className="space-y-6">
      {!hasPaymentMethod && <NoPaymentMethodBanner />}
      {recharges?.paused && config?.paymentMode === "auto" && <RechargePausedBanner paused={recharges.paused} timeZone={timeZone} />}
      {!recharges?.paused && recharges?.declined && config?.paymentMode === "auto" && (
        <RechargeDeclinedBanner declined={recharges.declined} timeZone={timeZone} />
      )}
      <div className="grid gap-6 md:grid-cols-2">
        <PaymentMethodCard hasPaymentMethod={hasPaymentMethod} card={card} />
        <BalanceCard
          balance={balance}
          config={config}
          hasPaymentMethod={hasPaymentMethod}
          rechargesPerDay={recharges?.rechargesPerDay ?? null}
          turnOffResult={autoPaymentAnswer?.from ? autoPaymentAnswer.result : undefined}
        />
      </div>
      <SpendCapForm state={spendCap} isAdmin={isAdmin} now={now} timeZone={timeZone} lastResult={answer?.intent === "spend-cap" ? answer.result : undefined} />
      <LedgerTable page={page} timeZone={timeZone} />
      <LedgerExport timeZone={timeZone} refusal={exportRefusal} />

      {config !== null && config.paymentMode !== "invoice" && (
        <>
          <UrlDialog name="add-funds" title="Add funds">
            <AddFundsForm
              nonce={(answer?.intent === "add-funds" && answer.nextNonce) || nonce}
              hasPaymentMethod={hasPaymentMethod}
              lastResult={answer?.intent === "add-funds" ? answer.result : undefined}
            />
          </UrlDialog>
          <UrlDialog name="auto-payment" title="Auto-payment">
            <AutoPaymentForm
              config={config}
              funds={hasPaymentMethod && balance !== null ? { balance, held: spendCap?.reserved ?? 0 } : null}
              lastResult={autoPaymentAnswer?.from ? undefined : autoPaymentAnswer?.result}
            />
          </UrlDialog>
        </>
      )}
      <UrlDialog name={PAYMENT_METHOD_DIALOG} title={hasPaymentMethod ? "Update payment method" : "Set up payment method"}>
        <ClientOnly fallback={<p className="text-base-content/70">The card form needs JavaScript. Please enable it to add a card.</p>}>
          {() => <PaymentMethodSetup publishableKey={stripePublicKey} />}
        </ClientOnly>
      </UrlDialog>
    </div>
  );
}
