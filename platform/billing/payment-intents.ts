import type { Deps } from "../context";
import type { DB } from "../db";
import type { PaymentIntentsTable } from "../db/schema";
import { PaymentDeclined, stripeErrorText } from "../providers/stripe";
import { account, payments } from "./accounts";
import { CREDIT_DESCRIPTIONS, creditPayment } from "./ledger";
import { exactDollars } from "@contract/money";
import { PlatformError } from "../http/errors";
import { centsToMicros, microsToCents, microsToDollars } from "./money";
import { runPeriodically } from "../periodic";
// A cycle (charges.ts records its intents here), used only inside functions, never as the modules load.
import { rechargeWaitingAccounts } from "./charges";

/**
 * Charges are recorded before the provider is called (`pending`), then `succeeded` or `failed` with
 * the provider's answer, then `credited` in the transaction that writes the ledger row. A process
 * that dies between the charge and the credit leaves a `pending` or `succeeded` intent, which
 * reconciliation finishes: nothing charged is ever left uncredited, nothing is credited twice (the
 * ledger's unique payment id).
 */
export type IntentKind = PaymentIntentsTable["kind"];

/** An intent only a minute old may still be in flight in another request (Stripe's timeout is 20 s, one retry). */
export const RECONCILE_AFTER_MS = 60_000;
/** Stripe forgets an idempotency key after 24 hours: a replay after that could be a new charge, so it stops short. */
export const RECONCILE_GIVE_UP_MS = 23 * 60 * 60_000;
export const RECONCILE_EVERY_MS = 60_000;

/** Why an add-funds was refused while an earlier one's outcome is not known yet. */
export function earlierPaymentMessage(amountMicros: number): string {
  return `An earlier payment of ${exactDollars(microsToDollars(amountMicros))} is still being confirmed with the payment provider, so nothing was charged now. Check the balance in a few minutes before adding funds again.`;
}

/**
 * Records a charge about to be made; a key already recorded (a double submit) is the same intent.
 * `alone`: refused (409) while another charge of that kind for the organization is pending or charged
 * and not yet credited. A person who tries again after "could not be reached" from a reopened dialog
 * has a new key, and reconciliation would charge both once the provider answered (decision 0128).
 */
export async function recordIntent(deps: Deps, intent: NewIntent, { alone = false } = {}): Promise<void> {
  if (!alone) return insertIntent(deps.db, deps.now(), intent);
  await deps.db.transaction().execute(async (trx) => {
    // The account's row lock: two new keys at once see each other.
    await trx
      .updateTable("billing_accounts")
      .set((eb) => ({ updated_at: eb.ref("updated_at") }))
      .where("org_id", "=", intent.orgId)
      .execute();
    // Another key, or this key with another amount (the amount changed in the dialog after "could not be
    // reached": the provider would refuse the key, and the answer would never come).
    const earlier = await trx
      .selectFrom("payment_intents")
      .select("amount_micros")
      .where("org_id", "=", intent.orgId)
      .where("kind", "=", intent.kind)
      .where("status", "in", ["pending", "succeeded"])
      .where((eb) => eb.or([eb("idempotency_key", "!=", intent.key), eb("amount_micros", "!=", intent.amountMicros)]))
      .executeTakeFirst();
    if (earlier) throw new PlatformError(409, earlierPaymentMessage(Number(earlier.amount_micros)));
    await insertIntent(trx, deps.now(), intent);
  });
}

/** `userId`: who asked (add funds), so that a credit reconciliation makes is theirs in the audit log; null for a recharge. */
interface NewIntent {
  orgId: number;
  kind: IntentKind;
  amountMicros: number;
  key: string;
  userId: number | null;
}

async function insertIntent(db: DB, now: number, intent: NewIntent): Promise<void> {
  await db
    .insertInto("payment_intents")
    .values({
      org_id: intent.orgId,
      kind: intent.kind,
      amount_micros: intent.amountMicros,
      idempotency_key: intent.key,
      provider_intent_id: null,
      status: "pending",
      created_at: now,
      updated_at: now,
      user_id: intent.userId,
    })
    .onConflict((oc) => oc.column("idempotency_key").doNothing())
    .execute();
}

/** The provider's answer. Only a pending intent moves: a concurrent double submit may have credited it already. */
export async function markIntent(deps: Deps, key: string, status: "succeeded" | "failed", providerIntentId: string | null = null): Promise<void> {
  await deps.db
    .updateTable("payment_intents")
    .set({ status, ...(providerIntentId && { provider_intent_id: providerIntentId }), updated_at: deps.now() })
    .where("idempotency_key", "=", key)
    .where("status", "=", "pending")
    .execute();
}

/** An automatic recharge's idempotency key: its organization and the time of the claim it charges for. */
export function rechargeKey(orgId: number, claimedAt: number): string {
  return `auto-recharge:${orgId}:${claimedAt}`;
}
function claimOf(key: string): number | null {
  const match = /^auto-recharge:\d+:(\d+)$/.exec(key);
  return match ? Number(match[1]) : null;
}

/**
 * Credits a succeeded charge: the ledger row, the balance, the intent marked credited, and a paused
 * automatic recharge cleared (a charge went through), in one transaction. False when already credited.
 * A recharge credited here also releases its claim: after a crash, reconciliation credits it, and the
 * claim left behind blocked the next recharge for RECHARGE_CLAIM_MS.
 */
export async function creditIntent(
  deps: Deps,
  intent: { orgId: number; kind: IntentKind; key: string; providerIntentId: string; amountMicros: number },
  /** Credited by reconciliation, not in the request that asked: who asked, as the intent recorded. */
  askedBy?: { userId: number | null },
): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    const first = await creditPayment(
      deps,
      { orgId: intent.orgId, paymentIntentId: intent.providerIntentId, amountMicros: intent.amountMicros, description: CREDIT_DESCRIPTIONS[intent.kind] },
      trx,
      askedBy,
    );
    const now = deps.now();
    await trx
      .updateTable("payment_intents")
      .set({ status: "credited", provider_intent_id: intent.providerIntentId, updated_at: now })
      .where("idempotency_key", "=", intent.key)
      .execute();
    await trx.updateTable("billing_accounts").set({ recharge_refused_at: null, recharge_refused_reason: null }).where("org_id", "=", intent.orgId).execute();
    const claimedAt = claimOf(intent.key);
    if (claimedAt !== null) {
      await trx
        .updateTable("billing_accounts")
        .set({ recharge_claimed_at: null })
        .where("org_id", "=", intent.orgId)
        .where("recharge_claimed_at", "=", claimedAt)
        .execute();
    }
    return first;
  });
}

/** The webhook credited this payment: its intent (if it has been told the provider's id) is done too. */
export async function markCreditedByProviderId(deps: Deps, providerIntentId: string, db: DB = deps.db): Promise<void> {
  await db
    .updateTable("payment_intents")
    .set({ status: "credited", updated_at: deps.now() })
    .where("provider_intent_id", "=", providerIntentId)
    .where("status", "!=", "credited")
    .execute();
}

type IntentRow = Awaited<ReturnType<typeof staleIntents>>[number];

function staleIntents(deps: Deps) {
  return deps.db
    .selectFrom("payment_intents")
    .selectAll()
    .where("status", "in", ["pending", "succeeded"])
    .where("updated_at", "<", deps.now() - RECONCILE_AFTER_MS)
    .orderBy("id")
    .limit(100)
    .execute();
}

/**
 * Finishes the charges a crash (or a lost answer) left behind: a `succeeded` intent is credited; a
 * `pending` one is asked again with its idempotency key, which the provider answers with the first
 * request's result, and credited once if it succeeded. Returns how many were credited.
 */
export async function reconcilePayments(deps: Deps): Promise<{ credited: number }> {
  let credited = 0;
  for (const row of await staleIntents(deps)) {
    try {
      if (await reconcileOne(deps, row)) credited += 1;
    } catch (error) {
      console.error(`Reconciling payment intent ${row.id} (organization ${row.org_id}) failed; will try again: ${stripeErrorText(error)}`);
    }
  }
  return { credited };
}

async function reconcileOne(deps: Deps, row: IntentRow): Promise<boolean> {
  const base = { orgId: row.org_id, kind: row.kind, key: row.idempotency_key };
  const askedBy = { userId: row.user_id };
  if (row.status === "succeeded" && row.provider_intent_id) {
    return creditIntent(deps, { ...base, providerIntentId: row.provider_intent_id, amountMicros: Number(row.amount_micros) }, askedBy);
  }
  if (Number(row.created_at) < deps.now() - RECONCILE_GIVE_UP_MS) {
    console.error(
      `Payment intent ${row.id} (organization ${row.org_id}, key ${row.idempotency_key}) was never confirmed by the provider; marked failed. Check it in the Stripe dashboard.`,
    );
    await markIntent(deps, row.idempotency_key, "failed");
    return false;
  }
  if (!deps.config.stripe) return false;
  const a = await account(deps, row.org_id);
  if (!a.stripe_customer_id || !a.payment_method_id) return false;
  let answer;
  try {
    answer = await payments(deps).charge({
      customerId: a.stripe_customer_id,
      paymentMethodId: a.payment_method_id,
      amountCents: microsToCents(Number(row.amount_micros)),
      idempotencyKey: row.idempotency_key,
      orgId: row.org_id,
      kind: row.kind,
      description: CREDIT_DESCRIPTIONS[row.kind],
    });
  } catch (error) {
    if (error instanceof PaymentDeclined) {
      await markIntent(deps, row.idempotency_key, "failed");
      return false;
    }
    throw error;
  }
  if (answer.status !== "succeeded") {
    await markIntent(deps, row.idempotency_key, "failed", answer.id);
    return false;
  }
  await markIntent(deps, row.idempotency_key, "succeeded", answer.id);
  return creditIntent(deps, { ...base, providerIntentId: answer.id, amountMicros: centsToMicros(answer.amountCents) }, askedBy);
}

/**
 * Reconciliation at start and every minute, one run at a time, then the automatic recharges nothing else
 * would start (rechargeWaitingAccounts). `stop()` (graceful shutdown) clears the timer and waits for a
 * run in progress.
 */
export function startPaymentReconciler(deps: Deps, everyMs = RECONCILE_EVERY_MS): { stop: () => Promise<void> } {
  return runPeriodically(
    "Payment reconciliation",
    async () => {
      await reconcilePayments(deps);
      await rechargeWaitingAccounts(deps);
    },
    everyMs,
    { atStart: true },
  );
}
