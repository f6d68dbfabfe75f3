import { CreditCard } from "lucide-react";
import { ConfirmAction } from "~/components/ConfirmAction";
import { DialogLink } from "~/components/UrlDialog";
import type { PaymentMethodSummary } from "~/platform/billing";
import { cardSubject, describeCard } from "./format";
import { BILLING_MESSAGES } from "./messages";

/** The `?dialog=` name of the card form, which this card opens. */
export const PAYMENT_METHOD_DIALOG = "payment-method";

/** The card on file, with Update and Remove; or the way to set one up. */
export function PaymentMethodCard({ hasPaymentMethod, card }: { hasPaymentMethod: boolean; card: PaymentMethodSummary }) {
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="payment-method-card-title">
      <div className="card-body">
        <h2 id="payment-method-card-title" className="card-title">
          <CreditCard className="size-5" aria-hidden /> Payment method
        </h2>
        {hasPaymentMethod ? (
          <>
            <p className="text-lg font-medium">{describeCard(card)}</p>
            <p className="text-sm text-base-content/70">Used for adding funds and auto-payment.</p>
            <div className="card-actions mt-2 justify-end">
              <DialogLink name={PAYMENT_METHOD_DIALOG} className="btn btn-outline btn-sm">
                Update<span className="sr-only"> {cardSubject(card)}</span>
              </DialogLink>
              <ConfirmAction
                label={
                  <>
                    Remove<span className="sr-only"> {cardSubject(card)}</span>
                  </>
                }
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
              <DialogLink name={PAYMENT_METHOD_DIALOG} className="btn btn-primary btn-sm">
                Set up payment method
              </DialogLink>
            </div>
          </>
        )}
      </div>
    </section>
  );
}
