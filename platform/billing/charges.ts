import { randomUUID } from "node:crypto";
import type { RechargeStatus } from "@contract/billing";
import { amountError, INVOICE_REFUSAL, NO_PAYMENT_METHOD, rechargeCapReason } from "@contract/billing";
import type { Deps } from "../context";
import { PlatformError } from "../http/errors";
import { PaymentDeclined } from "../providers/stripe";
import { account, getBalance, payments } from "./accounts";
import type { CreditKind } from "./ledger";
import { CREDIT_DESCRIPTIONS, debitUsage } from "./ledger";
import { centsToMicros, dollarsToMicros, microsToCents } from "./money";
import { creditIntent, markIntent, rechargeKey, recordIntent } from "./payment-intents";

const DAY_MS = 24 * 60 * 60_000;

/** A claimed auto-recharge that never finished (a crash, a declined card) may be retried after this. */
export const RECHARGE_CLAIM_MS = 10 * 60_000;

/**
 * Charges the saved card off-session and credits the ledger once the charge has succeeded. The intent
 * is recorded first, so a crash anywhere after the provider's call is finished by reconciliation.
 */
async function chargeAndCredit(
  deps: Deps,
  a: { org_id: number; stripe_customer_id: string | null; payment_method_id: string | null },
  amountMicros: number,
  kind: CreditKind,
  idempotencyKey: string,
): Promise<void> {
  if (!a.stripe_customer_id || !a.payment_method_id) throw new PlatformError(400, NO_PAYMENT_METHOD);
  const stripe = payments(deps);
  await recordIntent(deps, { orgId: a.org_id, kind, amountMicros, key: idempotencyKey });
  let intent;
  try {
    intent = await stripe.charge({
      customerId: a.stripe_customer_id,
      paymentMethodId: a.payment_method_id,
      amountCents: microsToCents(amountMicros),
      idempotencyKey,
      orgId: a.org_id,
      kind,
      description: CREDIT_DESCRIPTIONS[kind],
    });
  } catch (error) {
    if (error instanceof PaymentDeclined) {
      await markIntent(deps, idempotencyKey, "failed");
      throw new PlatformError(402, error.message);
    }
    // The outcome is unknown: the intent stays pending and reconciliation asks again with the same key.
    // The provider's message says what failed (a connection, a timeout); its object is a page of fields.
    console.error(
      `Stripe charge ${idempotencyKey} failed (its outcome is unknown; reconciliation asks again): ${error instanceof Error ? error.message : String(error)}`,
    );
    throw new PlatformError(502, "The payment provider could not be reached. Please try again.");
  }
  if (intent.status !== "succeeded") {
    await markIntent(deps, idempotencyKey, "failed", intent.id);
    throw new PlatformError(402, "The payment did not go through. Please check your payment method.");
  }
  await markIntent(deps, idempotencyKey, "succeeded", intent.id);
  await creditIntent(deps, { orgId: a.org_id, kind, key: idempotencyKey, providerIntentId: intent.id, amountMicros: centsToMicros(intent.amountCents) });
}

/** `POST /billing/add-funds`: `key` (a nonce from the form) makes a double submit one charge. */
export async function addFunds(deps: Deps, orgId: number, amount: number, key?: string): Promise<{ balance: number }> {
  const refused = amountError(amount);
  if (refused) throw new PlatformError(400, refused, { fields: { amount: refused } });
  const a = await account(deps, orgId);
  if (a.payment_mode === "invoice") throw new PlatformError(409, `${INVOICE_REFUSAL}: adding funds is not available`);
  if (!a.payment_method_id) throw new PlatformError(400, NO_PAYMENT_METHOD);
  await chargeAndCredit(deps, a, dollarsToMicros(amount), "add_funds", `add-funds:${orgId}:${key ?? randomUUID()}`);
  return { balance: await getBalance(deps, orgId) };
}

/** Charges one recharge if the balance is under the threshold and no other recharge holds the claim. */
export async function autoRecharge(deps: Deps, orgId: number): Promise<boolean> {
  const claimedAt = deps.now();
  const claimed = await deps.db
    .updateTable("billing_accounts")
    .set({ recharge_claimed_at: claimedAt })
    .where("org_id", "=", orgId)
    .where("payment_mode", "=", "auto")
    .where("auto_enabled", "=", 1)
    .where("payment_method_id", "is not", null)
    .where((eb) => eb("balance_micros", "<", eb.ref("auto_threshold_micros")))
    .where((eb) => eb.or([eb("recharge_claimed_at", "is", null), eb("recharge_claimed_at", "<", claimedAt - RECHARGE_CLAIM_MS)]))
    .returningAll()
    .executeTakeFirst();
  if (!claimed || claimed.auto_recharge_micros === null) return false;
  if (await rechargeLimitReached(deps, claimed.org_id, claimed.recharges_per_day, claimedAt)) return false;
  // Keyed by the claim, so a retried request is still one charge.
  await chargeAndCredit(deps, claimed, claimed.auto_recharge_micros, "auto_recharge", rechargeKey(orgId, claimedAt));
  // Released only after success (the credit releases it too, unless the webhook credited first): a
  // declined card is not retried on every debit, but after the claim expires.
  await deps.db
    .updateTable("billing_accounts")
    .set({ recharge_claimed_at: null })
    .where("org_id", "=", orgId)
    .where("recharge_claimed_at", "=", claimedAt)
    .execute();
  return true;
}

/** Automatic recharges (not failed) in the 24 hours before `now`; a pending one counts, it may have charged. */
async function rechargesInLastDay(deps: Deps, orgId: number, now: number): Promise<number> {
  const row = await deps.db
    .selectFrom("payment_intents")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("org_id", "=", orgId)
    .where("kind", "=", "auto_recharge")
    .where("status", "!=", "failed")
    .where("created_at", ">", now - DAY_MS)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The daily limit (a runaway script must not charge a card without end): at the limit the refusal is
 * recorded with the account, for /billing to show, and the claim is kept, so the limit is looked at
 * again when the claim expires rather than on every debit. The first refusal's time is kept.
 */
async function rechargeLimitReached(deps: Deps, orgId: number, perDay: number, now: number): Promise<boolean> {
  if ((await rechargesInLastDay(deps, orgId, now)) < perDay) return false;
  await deps.db
    .updateTable("billing_accounts")
    .set((eb) => ({ recharge_refused_at: eb.fn.coalesce("recharge_refused_at", eb.val(now)), recharge_refused_reason: rechargeCapReason(perDay) }))
    .where("org_id", "=", orgId)
    .execute();
  return true;
}

/** GET /billing/recharges: the daily limit, and the refused recharge until a charge succeeds again. */
export async function getRechargeStatus(deps: Deps, orgId: number): Promise<RechargeStatus> {
  const a = await account(deps, orgId);
  return {
    rechargesPerDay: Number(a.recharges_per_day),
    paused: a.recharge_refused_at !== null ? { at: new Date(Number(a.recharge_refused_at)).toISOString(), reason: a.recharge_refused_reason ?? "" } : null,
  };
}

/**
 * Meters a completion: the debit (ledger row and balance, one transaction), then, if an auto-mode
 * balance fell under the threshold, at most one auto-recharge, started and not waited for: the answer
 * being metered does not wait on the card's provider (decision 0102). The claim keeps it at most once.
 */
export async function recordUsage(deps: Deps, usage: Parameters<typeof debitUsage>[1], within?: Parameters<typeof debitUsage>[2]): Promise<void> {
  const after = await debitUsage(deps, usage, within);
  if (after.payment_mode === "auto" && after.auto_enabled && after.auto_threshold_micros !== null && after.balance_micros < after.auto_threshold_micros) {
    const done = autoRecharge(deps, usage.orgId).then(
      () => {},
      (error) => console.error(`Auto-recharge of organization ${usage.orgId} failed:`, error),
    );
    const entry = { db: deps.db, done };
    rechargesUnderway.add(entry);
    void done.finally(() => rechargesUnderway.delete(entry));
  }
}

/** Recharges started by debits and not yet finished, with the database each writes to. */
const rechargesUnderway = new Set<{ db: Deps["db"]; done: Promise<void> }>();

/** Resolves once the recharges debits started on this database have finished: a stop waits for them before closing it. */
export async function rechargesFinished(deps: Deps): Promise<void> {
  await Promise.all([...rechargesUnderway].filter((entry) => entry.db === deps.db).map((entry) => entry.done));
}
