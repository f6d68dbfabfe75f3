import { randomUUID } from "node:crypto";
import type { ExpressionBuilder } from "kysely";
import { sql } from "kysely";
import type { AutoPayment, BillingConfig, RechargeStatus } from "@contract/billing";
import { amountError, INVOICE_REFUSAL, NO_PAYMENT_METHOD, rechargeCapReason } from "@contract/billing";
import { exactDollars } from "@contract/money";
import type { Deps } from "../context";
import type { Database } from "../db/schema";
import { PlatformError } from "../http/errors";
import { PaymentDeclined, stripeErrorText } from "../providers/stripe";
import type { SpendRefused } from "../spend/reservations";
import { account, getBalance, payments, setAutoPaymentConfig } from "./accounts";
import type { CreditKind } from "./ledger";
import { CREDIT_DESCRIPTIONS, debitUsage } from "./ledger";
import { centsToMicros, dollarsToMicros, microsToCents, microsToDollars } from "./money";
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
  // Who asked for funds: a credit made away from this request (the webhook's, reconciliation's) says who.
  const userId = kind === "add_funds" ? (deps.request?.var.caller?.userId ?? null) : null;
  await recordIntent(deps, { orgId: a.org_id, kind, amountMicros, key: idempotencyKey, userId }, { alone: kind === "add_funds" });
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
      ...(userId !== null ? { userId } : {}),
    });
  } catch (error) {
    if (error instanceof PaymentDeclined) {
      await markIntent(deps, idempotencyKey, "failed");
      throw new PlatformError(402, error.message);
    }
    // The outcome is unknown: the intent stays pending and reconciliation asks again with the same key.
    // The provider's message says what failed (a connection, a timeout); its object is a page of fields.
    console.error(`Stripe charge ${idempotencyKey} failed (its outcome is unknown; reconciliation asks again): ${stripeErrorText(error)}`);
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

/*
 * When an auto-mode organization is recharged: when what it can spend (its balance less what running
 * requests hold) is under its threshold; or is nothing at all, which a threshold of $0 means (admission
 * never lets what can be spent go below $0, so "under $0" would never come); or, for a request refused
 * for balance, falls short of that request by no more than one recharge (audit O, O1). The debit,
 * the refusal, the saved configuration and the reconciler's pass all ask the same question.
 */
const spendable = sql<number>`(balance_micros - reserved_micros)`;

/**
 * An automatic recharge whose outcome is not known yet (the provider was unreachable: the intent is
 * pending until reconciliation asks again with its key) or which was charged and not yet credited. While
 * one is, no other is claimed: a new claim has a new key, and when the provider came back reconciliation
 * would charge both for one need.
 */
function rechargeUnsettled(eb: ExpressionBuilder<Database, "billing_accounts">) {
  return eb.exists(
    eb
      .selectFrom("payment_intents")
      .select("payment_intents.id")
      .whereRef("payment_intents.org_id", "=", "billing_accounts.org_id")
      .where("payment_intents.kind", "=", "auto_recharge")
      .where("payment_intents.status", "in", ["pending", "succeeded"]),
  );
}

/**
 * Takes the account's recharge claim when it needs a recharge (see above; `needMicros`: the refused
 * request's hold) and no other recharge holds the claim, within the daily limit. Only the database:
 * the charge is chargeClaimed's.
 */
async function claimRecharge(deps: Deps, orgId: number, needMicros = 0) {
  const claimedAt = deps.now();
  const claimed = await deps.db
    .updateTable("billing_accounts")
    .set({ recharge_claimed_at: claimedAt })
    .where("org_id", "=", orgId)
    .where("payment_mode", "=", "auto")
    .where("auto_enabled", "=", 1)
    .where("payment_method_id", "is not", null)
    .where("auto_recharge_micros", "is not", null)
    .where((eb) => {
      const needs = [eb(spendable, "<", eb.ref("auto_threshold_micros")), eb(spendable, "<=", 0)];
      if (needMicros > 0)
        needs.push(eb.and([eb(spendable, "<", needMicros), eb(sql<number>`balance_micros - reserved_micros + auto_recharge_micros`, ">=", needMicros)]));
      return eb.or(needs);
    })
    .where((eb) => eb.or([eb("recharge_claimed_at", "is", null), eb("recharge_claimed_at", "<", claimedAt - RECHARGE_CLAIM_MS)]))
    .where((eb) => eb.not(rechargeUnsettled(eb)))
    .returningAll()
    .executeTakeFirst();
  if (!claimed || claimed.auto_recharge_micros === null) return null;
  if (await rechargeLimitReached(deps, claimed.org_id, claimed.recharges_per_day, claimedAt)) return null;
  return { account: claimed, amountMicros: claimed.auto_recharge_micros, claimedAt };
}

type RechargeClaim = NonNullable<Awaited<ReturnType<typeof claimRecharge>>>;

async function chargeClaimed(deps: Deps, { account: a, amountMicros, claimedAt }: RechargeClaim): Promise<void> {
  // Keyed by the claim, so a retried request is still one charge.
  await chargeAndCredit(deps, a, amountMicros, "auto_recharge", rechargeKey(a.org_id, claimedAt));
  // Released only after success (the credit releases it too, unless the webhook credited first): a
  // declined card is not retried on every debit, but after the claim expires.
  await deps.db
    .updateTable("billing_accounts")
    .set({ recharge_claimed_at: null })
    .where("org_id", "=", a.org_id)
    .where("recharge_claimed_at", "=", claimedAt)
    .execute();
}

/** Charges one recharge if the account needs one (see above) and no other recharge holds the claim. */
export async function autoRecharge(deps: Deps, orgId: number, needMicros = 0): Promise<boolean> {
  const claim = await claimRecharge(deps, orgId, needMicros);
  if (!claim) return false;
  await chargeClaimed(deps, claim);
  return true;
}

/** Runs a recharge in the background: its caller answers without waiting for the card's provider (decision 0102). */
function inBackground(deps: Deps, orgId: number, recharge: Promise<unknown>): void {
  const done = recharge.then(
    () => {},
    (error) => console.error(`Auto-recharge of organization ${orgId} failed: ${stripeErrorText(error)}`),
  );
  const entry = { db: deps.db, done };
  rechargesUnderway.add(entry);
  void done.finally(() => rechargesUnderway.delete(entry));
}

/**
 * A priced request refused for balance in auto mode: the recharge that would let the organization spend
 * again is claimed here and charged in the background, so the 402 never waits for the card's provider
 * and concurrent refusals start one charge (the claim). Returns the refusal's message: it says when a
 * recharge has started. Only the refusal path pays for this; an admitted request reads nothing more.
 */
export async function refusedForBalance(deps: Deps, orgId: number, refusal: SpendRefused): Promise<string> {
  const short = refusal.shortOfBalance;
  if (!short?.autoRecharge || !deps.config.stripe) return refusal.message;
  let claim: RechargeClaim | null;
  try {
    claim = await claimRecharge(deps, orgId, short.needMicros);
  } catch (error) {
    console.error(`Auto-recharge of organization ${orgId} could not be started: ${stripeErrorText(error)}`);
    return refusal.message;
  }
  if (!claim) {
    // Another request's recharge is being charged (decision 0138): saying "Add funds" then invited a
    // second, unneeded charge by hand. The daily limit, or no recharge at all, keeps the plain refusal.
    const underway = await rechargeUnderway(deps, orgId);
    return underway !== null ? rechargeMessage(short.needMicros, short.availableMicros, underway, "is under way") : refusal.message;
  }
  inBackground(deps, orgId, chargeClaimed(deps, claim));
  return rechargeMessage(short.needMicros, short.availableMicros, claim.amountMicros, "has started");
}

/**
 * The amount of an automatic recharge being charged now, or null: one recorded and not settled, or one
 * claimed a moment ago whose charge is not recorded yet (neither declined nor stopped by the daily limit,
 * which leave the claim held without a charge).
 */
async function rechargeUnderway(deps: Deps, orgId: number): Promise<number | null> {
  const recorded = await deps.db
    .selectFrom("payment_intents")
    .select("amount_micros")
    .where("org_id", "=", orgId)
    .where("kind", "=", "auto_recharge")
    .where("status", "in", ["pending", "succeeded"])
    .executeTakeFirst();
  if (recorded) return Number(recorded.amount_micros);
  const a = await account(deps, orgId);
  const now = deps.now();
  if (a.recharge_claimed_at === null || Number(a.recharge_claimed_at) < now - RECHARGE_CLAIM_MS || a.auto_recharge_micros === null) return null;
  // Its charge may have been recorded since the read above: declined is not under way, anything else is.
  const charged = await deps.db
    .selectFrom("payment_intents")
    .select(["status", "amount_micros"])
    .where("idempotency_key", "=", rechargeKey(orgId, Number(a.recharge_claimed_at)))
    .executeTakeFirst();
  if (charged) return charged.status === "failed" ? null : Number(charged.amount_micros);
  const { tried } = await rechargesInLastDay(deps, orgId, now);
  return tried < Number(a.recharges_per_day) ? Number(a.auto_recharge_micros) : null;
}

/** The 402 of a request refused for balance while an automatic recharge (this one's, or another's) is being charged. */
export function rechargeMessage(needMicros: number, availableMicros: number, rechargeMicros: number, state: "has started" | "is under way"): string {
  const refused = `Insufficient balance: this request may cost up to ${exactDollars(microsToDollars(needMicros))}, ${exactDollars(microsToDollars(Math.max(0, availableMicros)))} is available.`;
  const recharge = `An automatic recharge of ${exactDollars(microsToDollars(rechargeMicros))} ${state}`;
  return Math.max(0, availableMicros) + rechargeMicros >= needMicros
    ? `${refused} ${recharge}: try again in a moment.`
    : `${refused} ${recharge}, which is not enough for this request. Add funds to use this model.`;
}

/**
 * `POST /billing/auto-payment-config`: an organization that turns automatic recharge on while its
 * balance is already under the threshold (a new one at $0) is recharged now, in the background: no debit
 * would ever come to start it, as nothing can be admitted.
 */
export async function saveAutoPaymentConfig(deps: Deps, orgId: number, input: AutoPayment): Promise<BillingConfig> {
  const saved = await setAutoPaymentConfig(deps, orgId, input);
  if (input.enabled) {
    const recharge = autoRecharge(deps, orgId);
    inBackground(deps, orgId, recharge);
    // The person was told that saving charges the card now: the answer waits for that charge a while, so
    // the page it leads to shows the outcome, a decline included (decision 0139). A slow provider is not
    // waited for past SAVE_WAITS_FOR_RECHARGE_MS; the charge goes on in the background.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([recharge.catch(() => {}), new Promise<void>((resolve) => (timer = setTimeout(resolve, SAVE_WAITS_FOR_RECHARGE_MS)))]);
    clearTimeout(timer);
  }
  return saved;
}

/** How long saving the auto-payment settings waits for the recharge it starts (Stripe answers in about a second). */
export const SAVE_WAITS_FOR_RECHARGE_MS = 8_000;

/**
 * The reconciler's pass (every minute): auto-mode accounts that need a recharge and whose claim is free
 * or expired, and no earlier recharge still waits for reconciliation. They are those nothing else would
 * recharge: a declined recharge, a refund or chargeback that took the balance under the threshold, a new
 * card, a paused day that has passed. The daily limit counts declined attempts too, so a declined card is
 * tried at most that often a day.
 */
export async function rechargeWaitingAccounts(deps: Deps): Promise<{ recharged: number }> {
  if (!deps.config.stripe) return { recharged: 0 };
  const now = deps.now();
  const due = await deps.db
    .selectFrom("billing_accounts")
    .select("org_id")
    .where("payment_mode", "=", "auto")
    .where("auto_enabled", "=", 1)
    .where("payment_method_id", "is not", null)
    .where("auto_recharge_micros", "is not", null)
    .where((eb) => eb.or([eb(spendable, "<", eb.ref("auto_threshold_micros")), eb(spendable, "<=", 0)]))
    .where((eb) => eb.or([eb("recharge_claimed_at", "is", null), eb("recharge_claimed_at", "<", now - RECHARGE_CLAIM_MS)]))
    .where((eb) => eb.not(rechargeUnsettled(eb)))
    .orderBy("org_id")
    .limit(100)
    .execute();
  let recharged = 0;
  for (const { org_id: orgId } of due) {
    try {
      if (await autoRecharge(deps, orgId)) recharged += 1;
    } catch (error) {
      console.error(`Auto-recharge of organization ${orgId} failed; the claim's expiry allows another attempt: ${stripeErrorText(error)}`);
    }
  }
  return { recharged };
}

/**
 * Automatic recharges tried in the 24 hours before `now`: a pending one counts, it may have charged, and
 * a declined one too, so a declined card is not tried again without end (audit O, O1); but not one
 * declined before the organization's last successful payment (a new card that added funds has worked).
 */
async function rechargesInLastDay(deps: Deps, orgId: number, now: number): Promise<{ tried: number; declined: number }> {
  const lastPaid = deps.db
    .selectFrom("payment_intents")
    .select((eb) => eb.fn.max("created_at").as("at"))
    .where("org_id", "=", orgId)
    .where("status", "in", ["succeeded", "credited"]);
  const row = await deps.db
    .selectFrom("payment_intents")
    .select((eb) => [
      eb.fn.countAll<number>().as("tried"),
      eb.fn.sum<number | string | null>(eb.case().when("status", "=", "failed").then(1).else(0).end()).as("declined"),
    ])
    .where("org_id", "=", orgId)
    .where("kind", "=", "auto_recharge")
    .where("created_at", ">", now - DAY_MS)
    .where((eb) => eb.or([eb("status", "!=", "failed"), eb("created_at", ">", eb.fn.coalesce(lastPaid, eb.val(0)))]))
    .executeTakeFirstOrThrow();
  return { tried: Number(row.tried), declined: Number(row.declined ?? 0) };
}

/**
 * The daily limit (a runaway script must not charge a card without end): at the limit the refusal is
 * recorded with the account, for /billing to show, and the claim is kept, so the limit is looked at
 * again when the claim expires rather than on every debit. The first refusal's time is kept.
 */
async function rechargeLimitReached(deps: Deps, orgId: number, perDay: number, now: number): Promise<boolean> {
  const { tried, declined } = await rechargesInLastDay(deps, orgId, now);
  if (tried < perDay) return false;
  const reason = declined > 0 ? declinedRechargesReason(perDay, declined) : rechargeCapReason(perDay);
  await deps.db
    .updateTable("billing_accounts")
    .set((eb) => ({ recharge_refused_at: eb.fn.coalesce("recharge_refused_at", eb.val(now)), recharge_refused_reason: reason }))
    .where("org_id", "=", orgId)
    .execute();
  return true;
}

/** Why automatic recharges are paused when cards declined some of the day's attempts (/billing shows it after "Automatic recharge paused: "). */
export function declinedRechargesReason(perDay: number, declined: number): string {
  return `${perDay} recharge${perDay === 1 ? "" : "s"} tried today (${declined} declined by the card), the daily limit`;
}

/** GET /billing/recharges: the daily limit, and the refused recharge until a charge succeeds again. */
export async function getRechargeStatus(deps: Deps, orgId: number): Promise<RechargeStatus> {
  const a = await account(deps, orgId);
  return {
    rechargesPerDay: Number(a.recharges_per_day),
    paused: a.recharge_refused_at !== null ? { at: new Date(Number(a.recharge_refused_at)).toISOString(), reason: a.recharge_refused_reason ?? "" } : null,
    declined: a.auto_enabled ? await lastDeclinedRecharge(deps, orgId) : null,
  };
}

/**
 * The organization's last automatic recharge, when it failed (declined by the card, or not confirmed)
 * and no payment has succeeded since: before, nothing said so until the daily limit paused recharges,
 * and an organization that had just turned recharges on saw "Enabled" and a balance of $0 (decision 0139).
 */
async function lastDeclinedRecharge(deps: Deps, orgId: number): Promise<RechargeStatus["declined"]> {
  const last = await deps.db
    .selectFrom("payment_intents")
    .select(["id", "status", "amount_micros", "updated_at"])
    .where("org_id", "=", orgId)
    .where("kind", "=", "auto_recharge")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!last || last.status !== "failed") return null;
  const paidSince = await deps.db
    .selectFrom("payment_intents")
    .select("id")
    .where("org_id", "=", orgId)
    .where("id", ">", last.id)
    .where("status", "in", ["succeeded", "credited"])
    .limit(1)
    .executeTakeFirst();
  return paidSince ? null : { at: new Date(Number(last.updated_at)).toISOString(), amount: microsToDollars(Number(last.amount_micros)) };
}

/**
 * Meters a completion: the debit (ledger row and balance, one transaction), then, if what an auto-mode
 * organization can spend fell under the threshold (or to nothing), at most one auto-recharge, started and not waited for: the answer
 * being metered does not wait on the card's provider (decision 0102). The claim keeps it at most once.
 */
export async function recordUsage(deps: Deps, usage: Parameters<typeof debitUsage>[1], within?: Parameters<typeof debitUsage>[2]): Promise<void> {
  const after = await debitUsage(deps, usage, within);
  if (after.payment_mode !== "auto" || !after.auto_enabled || after.auto_threshold_micros === null) return;
  const spendableAfter = after.balance_micros - after.reserved_micros;
  if (spendableAfter < after.auto_threshold_micros || spendableAfter <= 0) inBackground(deps, usage.orgId, autoRecharge(deps, usage.orgId));
}

/** Recharges started in the background and not yet finished, with the database each writes to. */
const rechargesUnderway = new Set<{ db: Deps["db"]; done: Promise<void> }>();

/** Resolves once the recharges started on this database have finished: a stop waits for them before closing it. */
export async function rechargesFinished(deps: Deps): Promise<void> {
  await Promise.all([...rechargesUnderway].filter((entry) => entry.db === deps.db).map((entry) => entry.done));
}
