import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import type { Stripe } from "@stripe/stripe-js";
// The pure entry loads Stripe.js only when loadStripe is called: on this screen, when the form opens.
import { loadStripe } from "@stripe/stripe-js/pure";
import { CheckCircle2 } from "lucide-react";
import type { FormEvent } from "react";
import { useEffect, useRef, useState } from "react";
import { SETUP_ENDPOINT, SETUP_MESSAGES } from "./messages";
import { Alert } from "~/components/Alert";
import { DialogCloseLink, useDialogClose } from "~/components/UrlDialog";
import { pageOrganizationHeaders } from "~/features/auth/page-organization";
import { usePageOrganizationId } from "~/features/auth/PageOrganizationField";

/** A call of the card form's resource route, naming the organization the page shows (decision 0098). */
function callSetup(body: object, organizationId: number | undefined): Promise<Response> {
  const headers = { "content-type": "application/json", ...pageOrganizationHeaders(organizationId) };
  return fetch(SETUP_ENDPOINT, { method: "POST", headers, body: JSON.stringify(body) });
}

/** Asks the console for a SetupIntent's client secret, mapping each failure to SPEC §8's text. */
export async function requestClientSecret(organizationId: number | undefined): Promise<{ clientSecret: string } | { error: string }> {
  try {
    const response = await callSetup({ intent: "start" }, organizationId);
    // Another organization was made active in another tab: say so rather than set up its card.
    if (response.status === 409) return { error: String(((await response.json()) as { error?: unknown }).error ?? SETUP_MESSAGES.setupFailed) };
    if (!response.ok) return { error: SETUP_MESSAGES.setupFailed };
    const body = (await response.json()) as { clientSecret?: unknown };
    if (typeof body.clientSecret !== "string" || !body.clientSecret) return { error: SETUP_MESSAGES.noClientSecret };
    return { clientSecret: body.clientSecret };
  } catch {
    return { error: SETUP_MESSAGES.setupThrew };
  }
}

/** Records a succeeded setup right away (no waiting on the webhook). */
async function recordSetup(setupIntentId: string, organizationId: number | undefined): Promise<boolean> {
  try {
    const response = await callSetup({ intent: "confirm", setupIntentId }, organizationId);
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * The card form: Stripe's Payment Element (card only, tabs layout) for a fresh SetupIntent. Shown only
 * in the browser (ClientOnly): Stripe.js needs JavaScript.
 */
export function PaymentMethodSetup({ publishableKey }: { publishableKey: string | null }) {
  const [stripe, setStripe] = useState<Stripe | null>(null);
  const [clientSecret, setClientSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(publishableKey ? null : SETUP_MESSAGES.initFailed);
  const organizationId = usePageOrganizationId();

  useEffect(() => {
    if (!publishableKey) return;
    let live = true;
    loadStripe(publishableKey)
      .then((loaded) => {
        if (!live) return;
        if (loaded) setStripe(loaded);
        else setError(SETUP_MESSAGES.initFailed);
      })
      .catch(() => live && setError(SETUP_MESSAGES.initFailed));
    void requestClientSecret(organizationId).then((result) => {
      if (!live) return;
      if ("error" in result) setError((current) => current ?? result.error);
      else setClientSecret(result.clientSecret);
    });
    return () => {
      live = false;
    };
  }, [publishableKey, organizationId]);

  if (error) {
    return (
      <Alert kind="error">
        <span>{error}</span>
      </Alert>
    );
  }
  if (!stripe || !clientSecret) {
    return (
      <div className="space-y-3" aria-busy="true" aria-label="Loading the card form">
        <div className="skeleton h-10 w-full" />
        <div className="skeleton h-10 w-full" />
      </div>
    );
  }
  return (
    <Elements stripe={stripe} options={{ clientSecret, appearance: { theme: "stripe" } }}>
      <SetupForm />
    </Elements>
  );
}

function SetupForm() {
  const stripe = useStripe();
  const elements = useElements();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: "error" | "success"; text: string } | null>(null);
  const organizationId = usePageOrganizationId();
  const closeDialog = useDialogClose();
  // The reload belongs to the billing page's dialog: once it is closed or the page left (another page,
  // another organization, even while the card was being confirmed), it would throw away what the person
  // is doing there.
  const shown = useRef(false);
  const reload = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => {
    shown.current = true;
    return () => {
      shown.current = false;
      clearTimeout(reload.current);
    };
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!stripe || !elements || busy) return;
    setBusy(true);
    setMessage(null);
    try {
      const result = await stripe.confirmSetup({
        elements,
        // Stripe needs an absolute return URL: the page's own origin + /billing.
        confirmParams: { return_url: new URL("/billing", window.location.origin).toString() },
        redirect: "if_required",
      });
      if (result.error) {
        setMessage({ kind: "error", text: result.error.message || SETUP_MESSAGES.unexpected });
        setBusy(false);
        return;
      }
      if (result.setupIntent?.status !== "succeeded") {
        setMessage({ kind: "error", text: SETUP_MESSAGES.addFailed });
        setBusy(false);
        return;
      }
      if (!(await recordSetup(result.setupIntent.id, organizationId))) {
        setMessage({ kind: "error", text: SETUP_MESSAGES.updateFailed });
        setBusy(false);
        return;
      }
      setMessage({ kind: "success", text: SETUP_MESSAGES.added });
      // SPEC §4: the page reloads 2 seconds after a successful setup.
      if (shown.current) reload.current = setTimeout(() => window.location.replace("/billing"), 2000);
    } catch {
      setMessage({ kind: "error", text: SETUP_MESSAGES.unexpected });
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4">
      <PaymentElement options={{ layout: "tabs", paymentMethodOrder: ["card"] }} onEscape={closeDialog} />
      {message && (
        <Alert kind={message.kind}>
          {message.kind === "success" && <CheckCircle2 className="size-5" aria-hidden />}
          <span>{message.text}</span>
        </Alert>
      )}
      <div className="modal-action">
        {/* Like the dialog's ✕: a client navigation, so the dialog closes in place and focus goes back to its opener. */}
        <DialogCloseLink className="btn btn-ghost">Cancel</DialogCloseLink>
        <button type="submit" className="btn btn-primary" disabled={!stripe || !elements || busy || message?.kind === "success"}>
          {busy ? "Saving…" : "Save payment method"}
        </button>
      </div>
    </form>
  );
}
