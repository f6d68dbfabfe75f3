import Stripe from "stripe";
import type { StripeConfig } from "../config";

/**
 * The card payment provider behind the few calls billing makes, through the official `stripe`
 * package. `host`/`port`/`protocol` point it at a local fake in tests.
 */
export interface PaymentProvider {
  createCustomer(input: { orgId: number; name: string }): Promise<string>;
  /** `userId`: who started it, carried in its metadata so the webhook can say who added the card. */
  createSetupIntent(input: { customerId: string; orgId: number; userId?: number }): Promise<{ id: string; clientSecret: string }>;
  retrieveSetupIntent(id: string): Promise<{ id: string; status: string; customerId: string | null; paymentMethodId: string | null }>;
  retrievePaymentMethod(id: string): Promise<CardSummary>;
  detachPaymentMethod(id: string): Promise<void>;
  /** An off-session charge of the saved card. Throws `PaymentDeclined` when the card is refused. */
  charge(input: ChargeInput): Promise<{ id: string; status: string; amountCents: number }>;
  /** Checks the raw body's signature and reads the event; throws when it does not match. */
  verifyWebhook(rawBody: string, signature: string): PaymentEvent;
}

/**
 * What billing needs of a Stripe event: a card saved, a payment received, or anything else (only
 * recorded as seen). Stripe's object shapes (expandable ids, metadata) stay in this file.
 */
export type PaymentEvent = { id: string; type: string } & (
  | {
      kind: "setup_succeeded";
      customerId: string | null;
      paymentMethodId: string | null;
      /** Who started the setup (its metadata); null when absent. */
      userId: number | null;
    }
  | {
      kind: "payment_succeeded";
      paymentIntentId: string;
      customerId: string | null;
      /** From the metadata the charge was made with; null when absent or not an id. */
      orgId: number | null;
      purpose: "add_funds" | "auto_recharge";
      amountCents: number;
      /** Who asked for the payment (its metadata); null for an automatic recharge or when absent. */
      userId: number | null;
    }
  | {
      /**
       * Money taken back from a payment: `charge.refunded` (a refund made in Stripe's dashboard;
       * `amountCents` is the charge's refunded total so far, which each later refund raises) and
       * `charge.dispute.funds_withdrawn` (a chargeback). `charge.dispute.funds_reinstated` gives a
       * chargeback's money back (the dispute won).
       */
      kind: "refunded" | "dispute_withdrawn" | "dispute_reinstated";
      /** The charge for a refund, the dispute for a chargeback: what makes each reversal unique. */
      sourceId: string;
      paymentIntentId: string | null;
      amountCents: number;
    }
  | { kind: "other" }
);

/** Reads a verified Stripe event into billing's terms. */
export function paymentEvent(event: Stripe.Event): PaymentEvent {
  const base = { id: event.id, type: event.type };
  if (event.type === "setup_intent.succeeded") {
    const intent = event.data.object;
    return {
      ...base,
      kind: "setup_succeeded",
      customerId: idOf(intent.customer),
      paymentMethodId: idOf(intent.payment_method),
      userId: userIdOf(intent.metadata),
    };
  }
  if (event.type === "payment_intent.succeeded") {
    const intent = event.data.object;
    const orgId = Number(intent.metadata?.org_id);
    return {
      ...base,
      kind: "payment_succeeded",
      paymentIntentId: intent.id,
      customerId: idOf(intent.customer),
      orgId: intent.metadata?.org_id && Number.isSafeInteger(orgId) ? orgId : null,
      purpose: intent.metadata?.kind === "auto_recharge" ? "auto_recharge" : "add_funds",
      amountCents: intent.amount_received || intent.amount,
      userId: userIdOf(intent.metadata),
    };
  }
  if (event.type === "charge.refunded") {
    const charge = event.data.object;
    return { ...base, kind: "refunded", sourceId: charge.id, paymentIntentId: idOf(charge.payment_intent), amountCents: charge.amount_refunded };
  }
  if (event.type === "charge.dispute.funds_withdrawn" || event.type === "charge.dispute.funds_reinstated") {
    const dispute = event.data.object;
    return {
      ...base,
      kind: event.type === "charge.dispute.funds_withdrawn" ? "dispute_withdrawn" : "dispute_reinstated",
      sourceId: dispute.id,
      paymentIntentId: idOf(dispute.payment_intent),
      amountCents: dispute.amount,
    };
  }
  return { ...base, kind: "other" };
}

export interface CardSummary {
  id: string;
  brand: string | null;
  last4: string | null;
  /** The customer the card is attached to; null once detached. */
  customerId: string | null;
}

export interface ChargeInput {
  customerId: string;
  paymentMethodId: string;
  amountCents: number;
  idempotencyKey: string;
  orgId: number;
  kind: "add_funds" | "auto_recharge";
  description: string;
  /** Who asked for it (add funds), carried in its metadata so the webhook's credit says who. */
  userId?: number;
}

/** The card was refused (or the charge needs the customer and can't happen off-session). */
export class PaymentDeclined extends Error {}

/**
 * What a log line says of a failed Stripe call: its message, code and Stripe's request id (what its
 * dashboard and support look a request up by). Not the error object: some fifty lines of stacks, the raw
 * answer twice and a page of empty fields, and a card error carries its PaymentIntent or SetupIntent,
 * client_secret included.
 */
export function stripeErrorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { code, requestId } = error as { code?: unknown; requestId?: unknown };
  const notes = [typeof code === "string" ? `code ${code}` : "", typeof requestId === "string" ? `Stripe request ${requestId}` : ""].filter(Boolean);
  return notes.length > 0 ? `${error.message} (${notes.join(", ")})` : error.message;
}

const clients = new WeakMap<StripeConfig, PaymentProvider>();

export function paymentProvider(config: StripeConfig): PaymentProvider {
  let provider = clients.get(config);
  if (!provider) {
    provider = createProvider(config);
    clients.set(config, provider);
  }
  return provider;
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === "string" ? value : value.id;
}

function createProvider(config: StripeConfig): PaymentProvider {
  const stripe = new Stripe(config.secretKey, {
    ...(config.host && { host: config.host }),
    ...(config.port && { port: config.port }),
    ...(config.protocol && { protocol: config.protocol }),
    maxNetworkRetries: 1,
    timeout: 20_000,
    appInfo: { name: "ai-console" },
  });

  return {
    async createCustomer({ orgId, name }) {
      const customer = await stripe.customers.create({ name, metadata: { org_id: String(orgId) } });
      return customer.id;
    },
    async createSetupIntent({ customerId, orgId, userId }) {
      const intent = await stripe.setupIntents.create({
        customer: customerId,
        allowed_payment_method_types: ["card"],
        usage: "off_session",
        metadata: { org_id: String(orgId), ...(userId !== undefined ? { user_id: String(userId) } : {}) },
      });
      if (!intent.client_secret) throw new Error("Stripe returned a SetupIntent without a client secret");
      return { id: intent.id, clientSecret: intent.client_secret };
    },
    async retrieveSetupIntent(id) {
      const intent = await stripe.setupIntents.retrieve(id);
      return { id: intent.id, status: intent.status, customerId: idOf(intent.customer), paymentMethodId: idOf(intent.payment_method) };
    },
    async retrievePaymentMethod(id) {
      const method = await stripe.paymentMethods.retrieve(id);
      return { id: method.id, brand: method.card?.brand ?? null, last4: method.card?.last4 ?? null, customerId: idOf(method.customer) };
    },
    async detachPaymentMethod(id) {
      await stripe.paymentMethods.detach(id);
    },
    async charge(input) {
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: input.amountCents,
            currency: "usd",
            customer: input.customerId,
            payment_method: input.paymentMethodId,
            off_session: true,
            confirm: true,
            description: input.description,
            metadata: { org_id: String(input.orgId), kind: input.kind, ...(input.userId !== undefined ? { user_id: String(input.userId) } : {}) },
          },
          { idempotencyKey: input.idempotencyKey },
        );
        return { id: intent.id, status: intent.status, amountCents: intent.amount_received || intent.amount };
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) throw new PaymentDeclined(error.message || "Your card was declined.");
        throw error;
      }
    },
    verifyWebhook(rawBody, signature) {
      if (!config.webhookSecret) throw new Error("STRIPE_WEBHOOK_SECRET is not set");
      return paymentEvent(stripe.webhooks.constructEvent(rawBody, signature, config.webhookSecret));
    },
  };
}

/** A user id from an object's metadata (`user_id`), or null. */
function userIdOf(metadata: Stripe.Metadata | null | undefined): number | null {
  const id = Number(metadata?.user_id);
  return metadata?.user_id && Number.isSafeInteger(id) && id > 0 ? id : null;
}
