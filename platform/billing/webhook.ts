import { NOT_CONFIGURED } from "@contract/billing";
import type { Deps } from "../context";
import type { DB } from "../db";
import { PlatformError } from "../http/errors";
import type { PaymentEvent } from "../providers/stripe";
import { payments } from "./accounts";
import { CREDIT_DESCRIPTIONS, creditPayment } from "./ledger";
import { centsToMicros } from "./money";
import { markCreditedByProviderId } from "./payment-intents";
import { recordPaymentMethod } from "./payment-method";
import { applyReversal } from "./reversals";

export type WebhookAnswer = { received: true; duplicate?: true };

/** Stripe's events, each handled once: the event id is recorded in the transaction that applies it. */
export async function handleWebhook(deps: Deps, rawBody: string, signature: string | undefined): Promise<WebhookAnswer> {
  const stripe = payments(deps);
  if (!deps.config.stripe?.webhookSecret) throw new PlatformError(503, NOT_CONFIGURED);
  let event: PaymentEvent;
  try {
    event = stripe.verifyWebhook(rawBody, signature ?? "");
  } catch {
    throw new PlatformError(400, "Invalid signature");
  }

  const seen = await deps.db.selectFrom("stripe_events").select("id").where("id", "=", event.id).executeTakeFirst();
  if (seen) return { received: true, duplicate: true };

  if (event.kind === "setup_succeeded") {
    const { customerId, paymentMethodId } = event;
    const owner = customerId
      ? await deps.db.selectFrom("billing_accounts").select("org_id").where("stripe_customer_id", "=", customerId).executeTakeFirst()
      : undefined;
    // The card details come from Stripe before the transaction below (no network call inside one).
    if (owner && paymentMethodId) await recordPaymentMethod(deps, owner.org_id, paymentMethodId, { userId: event.userId });
    return answer(await markEvent(deps, event));
  }

  if (event.kind === "payment_succeeded") {
    const { orgId, customerId } = event;
    const owner =
      orgId !== null
        ? await deps.db
            .selectFrom("billing_accounts")
            .select("org_id")
            .where("org_id", "=", orgId)
            .where("stripe_customer_id", "=", customerId)
            .executeTakeFirst()
        : undefined;
    const first = await deps.db.transaction().execute(async (trx) => {
      const first = await markEvent(deps, event, trx);
      if (first && owner) {
        const description = CREDIT_DESCRIPTIONS[event.purpose];
        await creditPayment(
          deps,
          { orgId: owner.org_id, paymentIntentId: event.paymentIntentId, amountMicros: centsToMicros(event.amountCents), description },
          trx,
          { userId: event.userId },
        );
        await markCreditedByProviderId(deps, event.paymentIntentId, trx);
      }
      return first;
    });
    return answer(first);
  }

  if (event.kind === "refunded" || event.kind === "dispute_withdrawn" || event.kind === "dispute_reinstated") {
    const reversal = event;
    const first = await deps.db.transaction().execute(async (trx) => {
      const first = await markEvent(deps, reversal, trx);
      if (first) await applyReversal(deps, reversal, trx);
      return first;
    });
    return answer(first);
  }

  await markEvent(deps, event);
  return { received: true };
}

function answer(first: boolean): WebhookAnswer {
  return first ? { received: true } : { received: true, duplicate: true };
}

async function markEvent(deps: Deps, event: PaymentEvent, db: DB = deps.db): Promise<boolean> {
  const inserted = await db
    .insertInto("stripe_events")
    .values({ id: event.id, type: event.type, received_at: deps.now() })
    .onConflict((oc) => oc.column("id").doNothing())
    .returning("id")
    .executeTakeFirst();
  return Boolean(inserted);
}
