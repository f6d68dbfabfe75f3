import { randomUUID } from "node:crypto";
import { amountError, INVOICE_REFUSAL, NO_PAYMENT_METHOD } from "@contract/billing";
import type { Deps } from "../context";
import { PlatformError } from "../http/errors";
import { PaymentDeclined } from "../providers/stripe";
import { account, getBalance, payments } from "./accounts";
import type { CreditKind } from "./ledger";
import { CREDIT_DESCRIPTIONS, creditPayment, debitUsage } from "./ledger";
import { centsToMicros, dollarsToMicros, microsToCents } from "./money";

/** A claimed auto-recharge that never finished (a crash, a declined card) may be retried after this. */
export const RECHARGE_CLAIM_MS = 10 * 60_000;

/** Charges the saved card off-session; credits the ledger once the charge has succeeded. */
async function chargeAndCredit(
  deps: Deps,
  a: { org_id: number; stripe_customer_id: string | null; payment_method_id: string | null },
  amountMicros: number,
  kind: CreditKind,
  idempotencyKey: string,
): Promise<void> {
  if (!a.stripe_customer_id || !a.payment_method_id) throw new PlatformError(400, NO_PAYMENT_METHOD);
  const stripe = payments(deps);
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
    if (error instanceof PaymentDeclined) throw new PlatformError(402, error.message);
    console.error("Stripe charge failed:", error);
    throw new PlatformError(502, "The payment provider could not be reached. Please try again.");
  }
  if (intent.status !== "succeeded") {
    throw new PlatformError(402, "The payment did not go through. Please check your payment method.");
  }
  await creditPayment(deps, { orgId: a.org_id, paymentIntentId: intent.id, amountMicros: centsToMicros(intent.amountCents), description: CREDIT_DESCRIPTIONS[kind] });
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
  // Keyed by the claim, so a retried request is still one charge.
  await chargeAndCredit(deps, claimed, claimed.auto_recharge_micros, "auto_recharge", `auto-recharge:${orgId}:${claimedAt}`);
  // Released only after success: a declined card is not retried on every debit, but after the claim expires.
  await deps.db.updateTable("billing_accounts").set({ recharge_claimed_at: null }).where("org_id", "=", orgId).where("recharge_claimed_at", "=", claimedAt).execute();
  return true;
}

/**
 * Meters a completion: the debit (ledger row and balance, one transaction), then, outside the
 * transaction, at most one auto-recharge if an auto-mode balance fell under the threshold.
 */
export async function recordUsage(
  deps: Deps,
  usage: { orgId: number; model: string; rateCardId: string | null; costMicros: number; description: string },
  within?: Parameters<typeof debitUsage>[2],
): Promise<void> {
  const after = await debitUsage(deps, usage, within);
  if (after.payment_mode === "auto" && after.auto_enabled && after.auto_threshold_micros !== null && after.balance_micros < after.auto_threshold_micros) {
    try {
      await autoRecharge(deps, usage.orgId);
    } catch (error) {
      console.error(`Auto-recharge of organization ${usage.orgId} failed:`, error);
    }
  }
}
