import type { Deps } from "../context";
import { PlatformError } from "../http/errors";
import { account, payments } from "./accounts";
import { record } from "../audit/record";
import { stripeErrorText } from "../providers/stripe";

/** `POST /billing/payment-method`: the Stripe customer on first use, then a SetupIntent for the card form. */
export async function startPaymentMethodSetup(deps: Deps, orgId: number, orgName: string): Promise<{ clientSecret: string }> {
  const stripe = payments(deps);
  let a = await account(deps, orgId);
  if (!a.stripe_customer_id) {
    const customerId = await stripe.createCustomer({ orgId, name: orgName });
    // Two racing first setups: the first customer recorded wins and both use it.
    await deps.db
      .updateTable("billing_accounts")
      .set({ stripe_customer_id: customerId })
      .where("org_id", "=", orgId)
      .where("stripe_customer_id", "is", null)
      .execute();
    a = await account(deps, orgId);
  }
  const intent = await stripe.createSetupIntent({ customerId: a.stripe_customer_id!, orgId, userId: deps.request?.var.caller?.userId });
  return { clientSecret: intent.clientSecret };
}

/**
 * Records a succeeded setup's card (card details fetched before, no network call in a transaction).
 * Answers whether the card is now the organization's: a card taken off it (removed or replaced) is not
 * put back by a setup's late webhook, whether Stripe shows it detached or the removal ran while the
 * card was being fetched.
 */
export async function recordPaymentMethod(deps: Deps, orgId: number, paymentMethodId: string, viaProvider?: { userId: number | null }): Promise<boolean> {
  const stripe = payments(deps);
  const card = await stripe.retrievePaymentMethod(paymentMethodId);
  // The browser's return and Stripe's webhook (sometimes twice) record the same card at once: the row
  // is locked first, so one of them records it and audits it, and the card it replaced is known for sure.
  const outcome = await deps.db.transaction().execute(async (trx) => {
    await trx
      .updateTable("billing_accounts")
      .set((eb) => ({ updated_at: eb.ref("updated_at") }))
      .where("org_id", "=", orgId)
      .execute();
    const before = await trx.selectFrom("billing_accounts").selectAll().where("org_id", "=", orgId).executeTakeFirst();
    if (!before) throw new PlatformError(404, "Organization not found");
    if (before.payment_method_id === paymentMethodId) return { current: true, replaced: null };
    if (before.removed_payment_method_id === paymentMethodId || !card.customerId || card.customerId !== before.stripe_customer_id) {
      return { current: false, replaced: null };
    }
    await trx
      .updateTable("billing_accounts")
      .set({
        payment_method_id: paymentMethodId,
        payment_method_brand: card.brand,
        payment_method_last4: card.last4,
        removed_payment_method_id: before.payment_method_id ?? before.removed_payment_method_id,
        recharge_claimed_at: null,
        updated_at: deps.now(),
      })
      .where("org_id", "=", orgId)
      .execute();
    // From the webhook: the person who started the setup (its metadata), not the provider's request.
    const by = viaProvider ? { viaProvider: true, ...(viaProvider.userId !== null ? { actorId: viaProvider.userId } : {}) } : {};
    await record(deps, { orgId, action: "payment_method.added", old: cardOf(before), new: { brand: card.brand, last4: card.last4 }, ...by }, trx);
    return { current: true, replaced: before.payment_method_id };
  });
  // An update replaces the card: the old one is detached from the customer.
  if (outcome.replaced) {
    await stripe
      .detachPaymentMethod(outcome.replaced)
      .catch((error) => console.error(`Detaching the replaced payment method failed: ${stripeErrorText(error)}`));
  }
  return outcome.current;
}

/**
 * The synchronous path after the browser returns with `setup_intent`: the SetupIntent is retrieved from
 * Stripe and its card recorded if it succeeded, so the page is right at once without the webhook.
 */
export async function confirmPaymentMethodSetup(deps: Deps, orgId: number, setupIntentId: string): Promise<{ hasPaymentMethod: boolean }> {
  const stripe = payments(deps);
  const a = await account(deps, orgId);
  let intent;
  try {
    intent = await stripe.retrieveSetupIntent(setupIntentId);
  } catch {
    throw new PlatformError(404, "Setup not found");
  }
  if (!a.stripe_customer_id || intent.customerId !== a.stripe_customer_id) throw new PlatformError(404, "Setup not found");
  if (intent.status !== "succeeded" || !intent.paymentMethodId) throw new PlatformError(409, "The payment method setup has not succeeded");
  if (!(await recordPaymentMethod(deps, orgId, intent.paymentMethodId))) throw new PlatformError(409, "This card was removed. Add a payment method again.");
  return { hasPaymentMethod: true };
}

/** A removal with no card to remove: none on file, or another removal took it first. */
const NO_CARD_TO_REMOVE = "No payment method on file";

export async function removePaymentMethod(deps: Deps, orgId: number): Promise<void> {
  const stripe = payments(deps);
  const a = await account(deps, orgId);
  if (!a.payment_method_id) throw new PlatformError(404, NO_CARD_TO_REMOVE);
  try {
    await stripe.detachPaymentMethod(a.payment_method_id);
  } catch (error) {
    console.error(`Detaching the payment method failed: ${stripeErrorText(error)}`);
    throw new PlatformError(502, "Failed to remove payment method");
  }
  const removed = a.payment_method_id;
  await deps.db.transaction().execute(async (trx) => {
    const cleared = await trx
      .updateTable("billing_accounts")
      .set({
        payment_method_id: null,
        payment_method_brand: null,
        payment_method_last4: null,
        removed_payment_method_id: removed,
        updated_at: deps.now(),
      })
      .where("org_id", "=", orgId)
      .where("payment_method_id", "=", removed)
      .executeTakeFirst();
    // Another removal took the card off while this one waited for Stripe: this one removed nothing (the
    // card's one removal has its one entry).
    if (Number(cleared.numUpdatedRows) === 0) throw new PlatformError(404, NO_CARD_TO_REMOVE);
    await record(deps, { orgId, action: "payment_method.removed", old: cardOf(a) }, trx);
  });
}

/** A card as the audit log names it: brand and last 4 digits, nothing more. */
function cardOf(a: { payment_method_id: string | null; payment_method_brand: string | null; payment_method_last4: string | null }) {
  return a.payment_method_id ? { brand: a.payment_method_brand, last4: a.payment_method_last4 } : null;
}
