import type { Transaction } from "kysely";
import type { AutoPayment, BillingConfig, PaymentMethodSummary, PaymentMode } from "@contract/billing";
import { autoPaymentErrors, INVOICE_REFUSAL, NO_PAYMENT_METHOD, NOT_CONFIGURED } from "@contract/billing";
import type { Deps } from "../context";
import { compiledOnce } from "../db/compiled";
import type { DB } from "../db";
import type { Database } from "../db/schema";
import { PlatformError } from "../http/errors";
import { lockOrganization } from "../orgs/admin-lock";
import type { PaymentProvider } from "../providers/stripe";
import { paymentProvider } from "../providers/stripe";
import { dollarsToMicros, microsToDollars } from "./money";
import { record, recordChange } from "../audit/record";

/**
 * The billing account of an organization: its kept balance, its payment mode, its card. The row is
 * made with the organization (`insertAccount` in createOrganization's transaction; migration 0006 for
 * older ones), so reads never write.
 */
export async function insertAccount(trx: Transaction<Database>, orgId: number, now: number): Promise<void> {
  await trx.insertInto("billing_accounts").values({ org_id: orgId, updated_at: now }).execute();
}

/** For writers only, and defensively: an organization made outside createOrganization gets its row. */
export async function ensureAccount(db: DB, orgId: number, now = Date.now()): Promise<void> {
  await db
    .insertInto("billing_accounts")
    .values({ org_id: orgId, updated_at: now })
    .onConflict((oc) => oc.column("org_id").doNothing())
    .execute();
}

/** Four of /billing's reads (balance, configuration, card, recharges) are this row. */
const accountOf = compiledOnce((db, orgId: number) => db.selectFrom("billing_accounts").selectAll().where("org_id", "=", orgId));

export async function account(deps: Deps, orgId: number) {
  const [row] = await accountOf(deps.db, orgId);
  if (!row) throw new PlatformError(404, "Organization not found");
  return row;
}

export type Account = Awaited<ReturnType<typeof account>>;

/** The payment provider, or 503 when this installation has no Stripe keys. */
export function payments(deps: Deps): PaymentProvider {
  if (!deps.config.stripe) throw new PlatformError(503, NOT_CONFIGURED);
  return paymentProvider(deps.config.stripe);
}

export async function getBalance(deps: Deps, orgId: number): Promise<number> {
  return microsToDollars((await account(deps, orgId)).balance_micros);
}

export function configOf(a: Account): BillingConfig {
  return {
    paymentMode: a.payment_mode,
    autoPaymentConfig:
      a.auto_enabled && a.auto_threshold_micros !== null && a.auto_recharge_micros !== null
        ? { thresholdAmount: microsToDollars(a.auto_threshold_micros), rechargeAmount: microsToDollars(a.auto_recharge_micros) }
        : null,
  };
}

export async function getConfig(deps: Deps, orgId: number): Promise<BillingConfig> {
  return configOf(await account(deps, orgId));
}

export async function getPaymentMethod(deps: Deps, orgId: number): Promise<PaymentMethodSummary> {
  const a = await account(deps, orgId);
  return a.payment_method_id ? { brand: a.payment_method_brand, last4: a.payment_method_last4 } : null;
}

/**
 * The operator's setting (`npm run billing-mode`, the organization editor). The editor passes its
 * transaction, the one that checked its caller is still a system admin. Whether the mode changed: the
 * command says when the organization already used the mode.
 */
export async function setPaymentMode(deps: Deps, orgId: number, mode: PaymentMode, trx?: Transaction<Database>): Promise<boolean> {
  if (!trx) return deps.db.transaction().execute((own) => setPaymentMode(deps, orgId, mode, own));
  await ensureAccount(trx, orgId, deps.now());
  const before = await account({ ...deps, db: trx }, orgId);
  await trx.updateTable("billing_accounts").set({ payment_mode: mode, updated_at: deps.now() }).where("org_id", "=", orgId).execute();
  if (before.payment_mode === mode) return false;
  await record(deps, { orgId, action: "organization.payment_mode_changed", old: { paymentMode: before.payment_mode }, new: { paymentMode: mode } }, trx);
  return true;
}

/** POST /billing/auto-payment-config: the rules of SPEC §5, checked only when enabling. */
export async function setAutoPaymentConfig(deps: Deps, orgId: number, input: AutoPayment): Promise<BillingConfig> {
  // The change and its audit entry in one transaction, the settings it replaces read under the
  // organization's lock: two saves at once each saw the settings before both, and both wrote an entry
  // (one for a change the other had already made, or a stale "before").
  return deps.db.transaction().execute(async (trx) => {
    await lockOrganization(trx, orgId);
    const a = await account({ ...deps, db: trx }, orgId);
    if (a.payment_mode === "invoice") throw new PlatformError(409, `${INVOICE_REFUSAL}: auto-payment is not available`);
    if (input.enabled) {
      const fields = autoPaymentErrors(input);
      const first = fields.thresholdAmount ?? fields.rechargeAmount;
      if (first) throw new PlatformError(400, first, { fields });
      if (!a.payment_method_id) throw new PlatformError(400, NO_PAYMENT_METHOD);
      await trx
        .updateTable("billing_accounts")
        .set({
          payment_mode: "auto",
          auto_enabled: 1,
          auto_threshold_micros: dollarsToMicros(input.thresholdAmount),
          auto_recharge_micros: dollarsToMicros(input.rechargeAmount),
          // The claim is kept: a recharge under way when the form is saved must not be doubled by the
          // recharge the save starts (saveAutoPaymentConfig). An expired one is free anyway.
          updated_at: deps.now(),
        })
        .where("org_id", "=", orgId)
        .where("payment_mode", "!=", "invoice")
        .execute();
    } else {
      await trx
        .updateTable("billing_accounts")
        .set({ payment_mode: "manual", auto_enabled: 0, updated_at: deps.now() })
        .where("org_id", "=", orgId)
        .where("payment_mode", "!=", "invoice")
        .execute();
    }
    const after = await getConfig({ ...deps, db: trx }, orgId);
    await recordChange(deps, { orgId, action: "auto_payment.changed", old: configOf(a), new: after }, trx);
    return after;
  });
}
