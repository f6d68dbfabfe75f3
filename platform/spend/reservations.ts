import { sql } from "kysely";
import { insufficientBalanceMessage, monthlyCapMessage, tokenBudgetMessage } from "@contract/chat";
import type { Deps } from "../context";
import type { DB } from "../db";
import { compiledOnce } from "../db/compiled";
import { microsToDollars } from "../billing/money";

/** How long a reservation holds when its request never settles (a process that died): config RESERVATION_TTL_MS. */
export const DEFAULT_RESERVATION_TTL_MS = 5 * 60_000;

/** The UTC calendar month ('YYYY-MM') that monthly spend counts. */
export function monthKey(now: number): string {
  return new Date(now).toISOString().slice(0, 7);
}

/** A refusal of admission: 402 with the message the client reads. */
export class SpendRefused extends Error {
  readonly status = 402 as const;
  constructor(
    message: string,
    /** Set when the balance refused it: what was asked, what could be spent, and whether automatic recharge is on (auto mode). */
    readonly shortOfBalance?: { needMicros: number; availableMicros: number; autoRecharge: boolean },
  ) {
    super(message);
  }
}

export interface Admission {
  orgId: number;
  /** The API token, when the call came through /openai/v1. */
  tokenId: number | null;
  /**
   * false when the token had no budget as it was authenticated, just before: its budget is then not
   * read again (a statement less per call). A budget set in between applies from the next call, as if
   * it had been set a moment later. Absent: read in the transaction.
   */
  tokenBudgeted?: boolean;
  receiptId: string;
  /** The worst case of the request, in micro-dollars. */
  amountMicros: number;
}

/*
 * A row's running month never goes back. A settlement of last month that lands after the row moved on
 * (a metering retry or a lock wait across midnight at a month's end, a replica whose clock is behind)
 * rolled it back and wiped the new month's spend, so a $10 cap let $19 through (audit I).
 */
/** The month a row counts after a write dated in month `m`: the later of its own and `m`. */
const latestMonth = (m: string, m2: string) => sql<string>`(case when month_key > ${m} then month_key else ${m2} end)`;
/** The running total that month `m` is held against: the row's own when its month is `m` or later, else nothing. */
const spentSince = (m: string) => sql<number>`(case when month_key >= ${m} then month_spent_micros else 0 end)`;
/** The running total after a cost of month `m`: added in its own month, left out of a later one, a fresh start in a new one. */
const spentAfter = (m: string, m2: string, cost: number) =>
  sql<number>`(case when month_key > ${m} then month_spent_micros else (case when month_key = ${m2} then month_spent_micros else 0 end) + ${cost} end)`;

/**
 * Holds the worst case of a request before it is forwarded: one transaction of conditional updates, so
 * concurrent requests (in one process or many over one PostgreSQL) can never hold more than the balance,
 * the organization's monthly cap or the token's budget allow. PostgreSQL re-checks each WHERE on the row
 * it locked; SQLite runs the transactions one at a time. Throws SpendRefused when anything says no.
 */
// The statements of admission and settlement, built once (decision 0087): each value is its own
// argument, since a compiled query takes every value exactly once.
const holdOnAccount = compiledOnce((db, r: number, m: string, m1: string, m2: string, orgId: number, r2: number, m3: string, r3: number) =>
  db
    .updateTable("billing_accounts")
    .set((eb) => ({ reserved_micros: eb("reserved_micros", "+", r), month_key: latestMonth(m, m1), month_spent_micros: spentSince(m2) }))
    .where("org_id", "=", orgId)
    .where((eb) => eb.or([eb("payment_mode", "=", "invoice"), eb(eb("balance_micros", "-", eb.ref("reserved_micros")), ">=", r2)]))
    .where((eb) =>
      eb.or([eb("monthly_cap_micros", "is", null), eb(sql<number>`${spentSince(m3)} + reserved_micros + ${r3}`, "<=", eb.ref("monthly_cap_micros"))]),
    )
    .returning("org_id"),
);
const tokenBudget = compiledOnce((db, tokenId: number) => db.selectFrom("api_tokens").select(["budget_micros", "budget_period"]).where("id", "=", tokenId));
const holdOnTokenMonthly = compiledOnce((db, r: number, m: string, m1: string, m2: string, tokenId: number, m3: string, r2: number) =>
  db
    .updateTable("api_tokens")
    .set((eb) => ({ reserved_micros: eb("reserved_micros", "+", r), month_key: latestMonth(m, m1), month_spent_micros: spentSince(m2) }))
    .where("id", "=", tokenId)
    .where((eb) => eb(sql<number>`${spentSince(m3)} + reserved_micros + ${r2}`, "<=", eb.ref("budget_micros")))
    .returning("id"),
);
const holdOnTokenTotal = compiledOnce((db, r: number, m: string, m1: string, m2: string, tokenId: number, r2: number) =>
  db
    .updateTable("api_tokens")
    .set((eb) => ({ reserved_micros: eb("reserved_micros", "+", r), month_key: latestMonth(m, m1), month_spent_micros: spentSince(m2) }))
    .where("id", "=", tokenId)
    .where((eb) => eb(sql<number>`spent_micros + reserved_micros + ${r2}`, "<=", eb.ref("budget_micros")))
    .returning("id"),
);
const insertReservation = compiledOnce((db, orgId: number, tokenId: number | null, receiptId: string, amount: number, createdAt: number, expiresAt: number) =>
  db
    .insertInto("spend_reservations")
    .values({ org_id: orgId, token_id: tokenId, receipt_id: receiptId, amount_micros: amount, created_at: createdAt, expires_at: expiresAt }),
);
const releaseReservation = compiledOnce((db, receiptId: string) =>
  db.deleteFrom("spend_reservations").where("receipt_id", "=", receiptId).returning(["amount_micros", "token_id"]),
);
const settleOnAccount = compiledOnce((db, held: number, m: string, m1: string, m2: string, m3: string, cost: number, orgId: number) =>
  db
    .updateTable("billing_accounts")
    .set((eb) => ({ reserved_micros: eb("reserved_micros", "-", held), month_key: latestMonth(m, m1), month_spent_micros: spentAfter(m2, m3, cost) }))
    .where("org_id", "=", orgId),
);
const settleOnToken = compiledOnce((db, held: number, cost: number, m: string, m1: string, m2: string, m3: string, cost2: number, tokenId: number) =>
  db
    .updateTable("api_tokens")
    .set((eb) => ({
      reserved_micros: eb("reserved_micros", "-", held),
      spent_micros: eb("spent_micros", "+", cost),
      month_key: latestMonth(m, m1),
      month_spent_micros: spentAfter(m2, m3, cost2),
    }))
    .where("id", "=", tokenId),
);

/**
 * Holds the worst case of a request before it is forwarded: one transaction of conditional updates, so
 * concurrent requests (in one process or many over one PostgreSQL) can never hold more than the balance,
 * the organization's monthly cap or the token's budget allow. PostgreSQL re-checks each WHERE on the row
 * it locked; SQLite runs the transactions one at a time. Throws SpendRefused when anything says no.
 */
export async function reserve(deps: Deps, admission: Admission): Promise<void> {
  const { orgId, tokenId, receiptId, amountMicros: r } = admission;
  const now = deps.now();
  const m = monthKey(now);
  const ttl = deps.config.reservationTtlMs ?? DEFAULT_RESERVATION_TTL_MS;
  await deps.db.transaction().execute(async (trx) => {
    const [account] = await holdOnAccount(trx, r, m, m, m, orgId, r, m, r);
    if (!account) throw await accountRefusal(trx, orgId, r, m);

    let heldOnToken = false;
    if (tokenId !== null && admission.tokenBudgeted !== false) {
      const [token] = await tokenBudget(trx, tokenId);
      if (token?.budget_micros != null) {
        const [held] =
          token.budget_period === "month" ? await holdOnTokenMonthly(trx, r, m, m, m, tokenId, m, r) : await holdOnTokenTotal(trx, r, m, m, m, tokenId, r);
        if (!held) throw await tokenRefusal(trx, tokenId, r, m);
        heldOnToken = true;
      }
    }

    await insertReservation(trx, orgId, heldOnToken ? tokenId : null, receiptId, r, now, now + ttl);
  });
}

async function accountRefusal(trx: DB, orgId: number, r: number, m: string): Promise<SpendRefused> {
  const a = await trx.selectFrom("billing_accounts").selectAll().where("org_id", "=", orgId).executeTakeFirst();
  if (!a) return new SpendRefused(insufficientBalanceMessage(microsToDollars(r), 0));
  const spent = a.month_key !== null && a.month_key >= m ? a.month_spent_micros : 0;
  if (a.payment_mode !== "invoice" && a.balance_micros - a.reserved_micros < r) {
    const available = a.balance_micros - a.reserved_micros;
    return new SpendRefused(insufficientBalanceMessage(microsToDollars(r), microsToDollars(available)), {
      needMicros: r,
      availableMicros: available,
      autoRecharge: a.payment_mode === "auto" && Boolean(a.auto_enabled),
    });
  }
  return new SpendRefused(monthlyCapMessage(microsToDollars(r), microsToDollars(a.monthly_cap_micros ?? 0), microsToDollars(spent + a.reserved_micros)));
}

async function tokenRefusal(trx: DB, tokenId: number, r: number, m: string): Promise<SpendRefused> {
  const t = await trx.selectFrom("api_tokens").selectAll().where("id", "=", tokenId).executeTakeFirstOrThrow();
  const period = t.budget_period === "month" ? "month" : "total";
  const spent = (period === "month" ? (t.month_key !== null && t.month_key >= m ? t.month_spent_micros : 0) : t.spent_micros) + t.reserved_micros;
  return new SpendRefused(tokenBudgetMessage(microsToDollars(r), microsToDollars(t.budget_micros ?? 0), microsToDollars(spent), period));
}

/**
 * Settles a completion inside the transaction that writes its ledger row and its usage row: releases its
 * reservation if it is still there (one sweeper or settlement wins the delete, so nothing is released
 * twice), and counts the cost against the month and the token. The balance itself is the ledger's.
 */
export async function settleWithin(
  trx: DB,
  now: number,
  settlement: { orgId: number; tokenId: number | null; receiptId: string; costMicros: number },
): Promise<void> {
  const { orgId, tokenId, receiptId } = settlement;
  const cost = Math.max(0, Math.round(settlement.costMicros));
  const m = monthKey(now);
  const [released] = await releaseReservation(trx, receiptId);
  const held = released?.amount_micros ?? 0;
  await settleOnAccount(trx, held, m, m, m, m, cost, orgId);
  if (tokenId !== null) {
    const tokenHeld = released?.token_id != null ? held : 0;
    await settleOnToken(trx, tokenHeld, cost, m, m, m, m, cost, tokenId);
  }
}

/**
 * Keeps a running request's reservation from expiring: the sweeper would release a hold that still
 * spends. A stream also records its charge so far (`progress`), which the sweeper bills if its process dies.
 */
export async function extendReservation(deps: Deps, receiptId: string, progress?: string): Promise<void> {
  const expiresAt = deps.now() + (deps.config.reservationTtlMs ?? DEFAULT_RESERVATION_TTL_MS);
  await deps.db
    .updateTable("spend_reservations")
    .set(progress === undefined ? { expires_at: expiresAt } : { expires_at: expiresAt, progress })
    .where("receipt_id", "=", receiptId)
    .execute();
}

/**
 * Releases a reservation for nothing: its request was never forwarded (the upstream refused or was
 * unreachable), or it expired with nothing recorded. Whether it was still there to release.
 */
export async function release(deps: Deps, receiptId: string): Promise<boolean> {
  return deps.db.transaction().execute((trx) => releaseWithin(trx, receiptId));
}

async function releaseWithin(trx: DB, receiptId: string): Promise<boolean> {
  const released = await trx
    .deleteFrom("spend_reservations")
    .where("receipt_id", "=", receiptId)
    .returning(["org_id", "token_id", "amount_micros"])
    .executeTakeFirst();
  if (!released) return false;
  await trx
    .updateTable("billing_accounts")
    .set((eb) => ({ reserved_micros: eb("reserved_micros", "-", released.amount_micros) }))
    .where("org_id", "=", released.org_id)
    .execute();
  if (released.token_id !== null) {
    await trx
      .updateTable("api_tokens")
      .set((eb) => ({ reserved_micros: eb("reserved_micros", "-", released.amount_micros) }))
      .where("id", "=", released.token_id)
      .execute();
  }
  return true;
}

/**
 * Reservations past their expiry (their request never settled: its process died), and those made before
 * `orphansBefore` when the caller knows every earlier process is gone; a batch at a time.
 */
export async function expiredReservations(deps: Deps, orphansBefore?: number): Promise<{ receipt_id: string; progress: string | null }[]> {
  let query = deps.db.selectFrom("spend_reservations").select(["receipt_id", "progress"]);
  query =
    orphansBefore === undefined
      ? query.where("expires_at", "<=", deps.now())
      : query.where((eb) => eb.or([eb("expires_at", "<=", deps.now()), eb("created_at", "<", orphansBefore)]));
  return query.limit(1000).execute();
}
