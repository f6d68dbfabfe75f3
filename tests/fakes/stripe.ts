import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/**
 * A local stand-in for the Stripe HTTP API: only the endpoints the platform calls (customers,
 * SetupIntents, PaymentMethods, off-session PaymentIntents with idempotency keys), plus the confirm
 * call the fake Stripe.js makes. Test cards follow Stripe's: 4242… succeeds, 4000000000000002 is
 * declined at setup, 4000000000000341 saves fine but every charge on it is declined.
 * It signs webhooks with the shared secret and can deliver them to `webhookUrl`.
 */
export const TEST_CARDS = { ok: "4242424242424242", declinedAtSetup: "4000000000000002", declinesCharges: "4000000000000341" } as const;

/**
 * A charge of this many cents meets a network failure (the connection dropped before an answer) on its
 * first two attempts for an idempotency key, the client's own retry included; the third goes through.
 */
export const UNREACHABLE_TWICE_CENTS = 1313;

export interface FakeStripeOptions {
  webhookSecret: string;
  /** Where to deliver signed events (setup_intent.succeeded, payment_intent.succeeded); none when absent. */
  webhookUrl?: string;
  /** Deliver each event twice, as Stripe may. */
  duplicateWebhooks?: boolean;
}

interface SetupIntentRecord {
  id: string;
  object: "setup_intent";
  client_secret: string;
  customer: string | null;
  status: string;
  payment_method: string | null;
  usage: string;
  metadata: Record<string, string>;
  allowed_payment_method_types?: string[];
}

interface PaymentIntentRecord {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_received: number;
  currency: string;
  customer: string | null;
  payment_method: string | null;
  status: string;
  metadata: Record<string, string>;
  description: string | null;
}

type Params = Record<string, unknown>;

/** Parses Stripe's form encoding (`metadata[org_id]=1&allowed_payment_method_types[0]=card`). */
export function parseForm(body: string): Params {
  const out: Params = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = rawKey.replace(/\]/g, "").split("[");
    let node = out as Record<string, unknown>;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  return out;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

export class FakeStripe {
  customers = new Map<string, { id: string; object: "customer"; name: string | null; metadata: Record<string, string> }>();
  setupIntents = new Map<string, SetupIntentRecord>();
  paymentMethods = new Map<
    string,
    {
      id: string;
      object: "payment_method";
      type: "card";
      customer: string | null;
      card: { brand: string; last4: string; exp_month: number; exp_year: number };
      number: string;
    }
  >();
  paymentIntents = new Map<string, PaymentIntentRecord>();
  /** Every charge attempt, in order (idempotent replays are not attempts). */
  chargeAttempts: { amount: number; customer: string | null; succeeded: boolean; idempotencyKey: string | null }[] = [];
  delivered: { type: string; status: number }[] = [];
  private idempotent = new Map<string, { status: number; body: unknown }>();
  /** Charges of UNREACHABLE_TWICE_CENTS dropped so far, by idempotency key. */
  private dropped = new Map<string, number>();
  private server?: http.Server;
  private signer = new Stripe("sk_test_fake");

  constructor(readonly options: FakeStripeOptions) {}

  /** Racing calls, answered together: the next `count` card reads (or detaches) wait for one another. */
  private barriers: Partial<Record<"cardRead" | "detach", { count: number; waiting: (() => void)[] }>> = {};
  answerCardReadsTogether(count: number) {
    this.barriers.cardRead = { count, waiting: [] };
  }
  answerDetachesTogether(count: number) {
    this.barriers.detach = { count, waiting: [] };
  }
  private async turn(call: "cardRead" | "detach"): Promise<void> {
    const barrier = this.barriers[call];
    if (!barrier) return;
    await new Promise<void>((resolve) => {
      barrier.waiting.push(resolve);
      if (barrier.waiting.length < barrier.count) return;
      delete this.barriers[call];
      for (const go of barrier.waiting) go();
    });
  }

  /** A slow provider: charges wait until the returned function is called. */
  private chargesHeld: Promise<void> | null = null;
  holdCharges(): () => void {
    let release!: () => void;
    this.chargesHeld = new Promise((resolve) => (release = resolve));
    return () => {
      this.chargesHeld = null;
      release();
    };
  }

  /** Starts listening on loopback (port 0: any free port) and returns the settings for the `stripe` package. */
  async listen(port = 0): Promise<{ host: string; port: number; protocol: "http"; url: string }> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(port, "127.0.0.1", () => resolve());
    });
    const actual = (this.server.address() as AddressInfo).port;
    return { host: "127.0.0.1", port: actual, protocol: "http", url: `http://127.0.0.1:${actual}` };
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** A signed webhook body and its `Stripe-Signature` header. */
  event(type: string, object: unknown, eventId = id("evt")): { payload: string; signature: string; id: string } {
    const payload = JSON.stringify({
      id: eventId,
      object: "event",
      type,
      api_version: "2024-06-20",
      created: Math.floor(Date.now() / 1000),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: null,
    });
    const signature = this.signer.webhooks.generateTestHeaderString({ payload, secret: this.options.webhookSecret });
    return { payload, signature, id: eventId };
  }

  /** What the browser's card form does: confirms a SetupIntent with a card number. */
  confirmSetup(
    clientSecret: string,
    cardNumber: string = TEST_CARDS.ok,
  ): { ok: true; setupIntent: SetupIntentRecord } | { ok: false; status: number; error: { type: string; code: string; message: string } } {
    const intent = [...this.setupIntents.values()].find((s) => s.client_secret === clientSecret);
    if (!intent) return { ok: false, status: 404, error: { type: "invalid_request_error", code: "resource_missing", message: "No such setupintent" } };
    const number = cardNumber.replace(/\D/g, "");
    if (number === TEST_CARDS.declinedAtSetup) {
      intent.status = "requires_payment_method";
      return { ok: false, status: 402, error: { type: "card_error", code: "card_declined", message: "Your card was declined." } };
    }
    if (!/^\d{12,19}$/.test(number)) {
      return { ok: false, status: 402, error: { type: "card_error", code: "incorrect_number", message: "Your card number is incorrect." } };
    }
    const method = {
      id: id("pm"),
      object: "payment_method" as const,
      type: "card" as const,
      customer: intent.customer,
      card: { brand: number.startsWith("5") ? "mastercard" : "visa", last4: number.slice(-4), exp_month: 12, exp_year: 2034 },
      number,
    };
    this.paymentMethods.set(method.id, method);
    intent.status = "succeeded";
    intent.payment_method = method.id;
    void this.deliver("setup_intent.succeeded", intent);
    return { ok: true, setupIntent: intent };
  }

  private async deliver(type: string, object: unknown): Promise<void> {
    if (!this.options.webhookUrl) return;
    const { payload, signature } = this.event(type, object);
    for (let i = 0; i < (this.options.duplicateWebhooks ? 2 : 1); i++) {
      try {
        const response = await fetch(this.options.webhookUrl, {
          method: "POST",
          headers: { "content-type": "application/json", "stripe-signature": signature },
          body: payload,
        });
        this.delivered.push({ type, status: response.status });
      } catch {
        this.delivered.push({ type, status: 0 });
      }
    }
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://fake");
    const params = req.method === "GET" ? parseForm(url.search.slice(1)) : parseForm(body);
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { "content-type": "application/json", "request-id": id("req"), "access-control-allow-origin": "*" });
      res.end(JSON.stringify(json));
    };
    const key = req.headers["idempotency-key"];
    const idemKey = typeof key === "string" ? `${req.method} ${url.pathname} ${key}` : null;
    if (idemKey && this.idempotent.has(idemKey)) {
      const saved = this.idempotent.get(idemKey)!;
      return send(saved.status, saved.body);
    }
    const reply = (status: number, json: unknown) => {
      if (idemKey) this.idempotent.set(idemKey, { status, body: json });
      send(status, json);
    };
    const missing = (what: string) => reply(404, { error: { type: "invalid_request_error", code: "resource_missing", message: `No such ${what}` } });
    const path = url.pathname;
    let m: RegExpMatchArray | null;

    if (req.method === "POST" && path === "/v1/customers") {
      const customer = {
        id: id("cus"),
        object: "customer" as const,
        name: (params.name as string) ?? null,
        metadata: (params.metadata as Record<string, string>) ?? {},
      };
      this.customers.set(customer.id, customer);
      return reply(200, customer);
    }
    if (req.method === "POST" && path === "/v1/setup_intents") {
      const customer = (params.customer as string) ?? null;
      if (customer && !this.customers.has(customer)) return missing("customer");
      const sid = id("seti");
      const types = params.allowed_payment_method_types as Record<string, string> | undefined;
      const intent: SetupIntentRecord = {
        id: sid,
        object: "setup_intent",
        client_secret: `${sid}_secret_${randomBytes(8).toString("hex")}`,
        customer,
        status: "requires_payment_method",
        payment_method: null,
        usage: (params.usage as string) ?? "off_session",
        metadata: (params.metadata as Record<string, string>) ?? {},
        allowed_payment_method_types: types ? Object.values(types) : ["card"],
      };
      this.setupIntents.set(sid, intent);
      return reply(200, intent);
    }
    if ((m = path.match(/^\/v1\/setup_intents\/([^/]+)$/)) && req.method === "GET") {
      const intent = this.setupIntents.get(m[1]);
      return intent ? reply(200, intent) : missing("setupintent");
    }
    if ((m = path.match(/^\/v1\/setup_intents\/([^/]+)\/confirm$/)) && req.method === "POST") {
      const intent = this.setupIntents.get(m[1]);
      if (!intent || intent.client_secret !== params.client_secret) return missing("setupintent");
      const card = ((params.payment_method_data as Params | undefined)?.card as Params | undefined)?.number as string | undefined;
      const result = this.confirmSetup(intent.client_secret, card ?? TEST_CARDS.ok);
      return result.ok ? reply(200, result.setupIntent) : reply(result.status, { error: { ...result.error, setup_intent: intent } });
    }
    if ((m = path.match(/^\/v1\/payment_methods\/([^/]+)$/)) && req.method === "GET") {
      await this.turn("cardRead");
      const method = this.paymentMethods.get(m[1]);
      if (!method) return missing("payment_method");
      const { number: _number, ...visible } = method;
      return reply(200, visible);
    }
    if ((m = path.match(/^\/v1\/payment_methods\/([^/]+)\/detach$/)) && req.method === "POST") {
      await this.turn("detach");
      const method = this.paymentMethods.get(m[1]);
      if (!method) return missing("payment_method");
      method.customer = null;
      const { number: _number, ...visible } = method;
      return reply(200, visible);
    }
    if (req.method === "POST" && path === "/v1/payment_intents") {
      if (this.chargesHeld) await this.chargesHeld;
      const amount = Number(params.amount);
      if (amount === UNREACHABLE_TWICE_CENTS) {
        const dropped = this.dropped.get(idemKey ?? "") ?? 0;
        if (dropped < 2) {
          this.dropped.set(idemKey ?? "", dropped + 1);
          req.socket.destroy();
          return;
        }
      }
      const customer = (params.customer as string) ?? null;
      const method = this.paymentMethods.get(params.payment_method as string);
      const intent: PaymentIntentRecord = {
        id: id("pi"),
        object: "payment_intent",
        amount,
        amount_received: 0,
        currency: (params.currency as string) ?? "usd",
        customer,
        payment_method: method?.id ?? null,
        status: "requires_payment_method",
        metadata: (params.metadata as Record<string, string>) ?? {},
        description: (params.description as string) ?? null,
      };
      this.paymentIntents.set(intent.id, intent);
      if (!Number.isInteger(amount) || amount < 50) return reply(400, { error: { type: "invalid_request_error", message: "Invalid amount" } });
      if (!method || method.customer !== customer) {
        this.chargeAttempts.push({ amount, customer, succeeded: false, idempotencyKey: idemKey });
        return reply(400, { error: { type: "invalid_request_error", code: "resource_missing", message: "No such PaymentMethod" } });
      }
      if (method.number === TEST_CARDS.declinesCharges) {
        this.chargeAttempts.push({ amount, customer, succeeded: false, idempotencyKey: idemKey });
        return reply(402, {
          error: { type: "card_error", code: "card_declined", decline_code: "generic_decline", message: "Your card was declined.", payment_intent: intent },
        });
      }
      intent.status = "succeeded";
      intent.amount_received = amount;
      this.chargeAttempts.push({ amount, customer, succeeded: true, idempotencyKey: idemKey });
      void this.deliver("payment_intent.succeeded", intent);
      return reply(200, intent);
    }
    return reply(404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${path})` } });
  }

  get successfulCharges() {
    return this.chargeAttempts.filter((c) => c.succeeded);
  }
}
