import { afterEach, describe, expect, it } from "vitest";
import { AMOUNT_DECIMALS, AMOUNT_NOT_A_NUMBER } from "@contract/billing";
import { CREDIT_NOT_POSITIVE, CREDIT_TOO_LARGE, REASON_REQUIRED, REASON_TOO_LONG } from "@contract/system";
import { reserve } from "../../platform/spend/reservations";
import type { Harness } from "./harness";
import { createHarness } from "./harness";

/** The organization editor's reversal of a granted credit: the command's rules, behind the system organization's admins. */

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const path = (orgId: number | string) => `/system/organizations/${orgId}/credit-reversals`;

async function ledgerOf(orgId: number) {
  return h.deps.db
    .selectFrom("ledger_entries")
    .select(["description", "change_micros", "model", "payment_intent_id"])
    .where("org_id", "=", orgId)
    .orderBy("id")
    .execute();
}

async function balanceMicros(orgId: number): Promise<number> {
  return Number((await h.deps.db.selectFrom("billing_accounts").select("balance_micros").where("org_id", "=", orgId).executeTakeFirstOrThrow()).balance_micros);
}

async function reversalsAudited() {
  return h.deps.db
    .selectFrom("audit_log")
    .select(["org_id", "actor_id", "actor_name", "actor_email", "target", "old_value", "new_value"])
    .where("action", "=", "credit.reversed")
    .orderBy("id")
    .execute();
}

/** The operator (the first user: admin of the system organization), Acme's admin with $20 of granted credit, and a plain member of the system organization. */
async function cast() {
  h = await createHarness();
  const operator = await h.signIn("Olga Operator", "olga@example.test");
  const acme = await h.admin("Acme");
  const helper = await h.signIn("Hugo Helper");
  await h.join(operator, helper);
  expect((await operator.call("POST", `/system/organizations/${acme.orgId}/credits`, { amount: 20, reason: "Trial" })).status).toBe(200);
  return { operator, acme, helper };
}

describe("reversing a credit from the organization editor", () => {
  it("takes the amount off the balance with the ledger row 'Credit reversed: reason', audited as the signed-in operator", async () => {
    const { operator, acme } = await cast();
    const response = await operator.call("POST", path(acme.orgId), { amount: 7.5, reason: "  Granted twice " });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: acme.orgId, name: "Acme", balance: 12.5 });

    expect(await (await acme.call("GET", "/billing/balance")).json()).toBe(12.5);
    const [newest] = await (await acme.call("GET", "/billing/ledger")).json();
    expect(newest).toMatchObject({ description: "Credit reversed: Granted twice", change: -7.5, model: null, rateCardId: null });
    // The same row the command writes: no payment, no model, so a later reversal counts it as taken back.
    expect(await ledgerOf(acme.orgId)).toEqual([
      { description: "Credit: Trial", change_micros: 20_000_000, model: null, payment_intent_id: null },
      { description: "Credit reversed: Granted twice", change_micros: -7_500_000, model: null, payment_intent_id: null },
    ]);
    expect(await reversalsAudited()).toEqual([
      {
        org_id: acme.orgId,
        actor_id: operator.userId,
        actor_name: "Olga Operator",
        actor_email: "olga@example.test",
        target: null,
        old_value: null,
        new_value: JSON.stringify({ amount: -7.5, reason: "Granted twice" }),
      },
    ]);
  });

  it("is for the system organization's admins only, as granting is, and an unknown organization is not found", async () => {
    const { operator, acme, helper } = await cast();
    const body = { amount: 5, reason: "Mistake" };
    expect((await acme.call("POST", path(acme.orgId), body)).status).toBe(403);
    expect((await helper.call("POST", path(acme.orgId), body)).status).toBe(403);
    expect((await helper.call("POST", `/system/organizations/${acme.orgId}/credits`, body)).status).toBe(403);
    expect((await h.fetch(path(acme.orgId), { method: "POST", json: body })).status).toBe(401);
    expect((await operator.call("POST", path(999_999), body)).status).toBe(404);
    expect((await operator.call("POST", path("abc"), body)).status).toBe(404);
    expect(await balanceMicros(acme.orgId)).toBe(20_000_000);
    expect(await ledgerOf(acme.orgId)).toHaveLength(1);
    expect(await reversalsAudited()).toEqual([]);
  });

  it("refuses amounts and reasons outside a credit's rules, naming the field", async () => {
    const { operator, acme } = await cast();
    const cases: [unknown, unknown, string, string][] = [
      [0, "x", "amount", CREDIT_NOT_POSITIVE],
      [-5, "x", "amount", CREDIT_NOT_POSITIVE],
      [10_000.01, "x", "amount", CREDIT_TOO_LARGE],
      [1.234, "x", "amount", AMOUNT_DECIMALS],
      ["5", "x", "amount", AMOUNT_NOT_A_NUMBER],
      [5, "   ", "reason", REASON_REQUIRED],
      [5, "x".repeat(201), "reason", REASON_TOO_LONG],
    ];
    for (const [amount, reason, field, message] of cases) {
      const response = await operator.call("POST", path(acme.orgId), { amount, reason });
      expect(response.status, `${JSON.stringify(amount)} ${JSON.stringify(reason)}`).toBe(400);
      expect((await response.json()).fields).toEqual({ [field]: message });
    }
    expect(await balanceMicros(acme.orgId)).toBe(20_000_000);
  });

  it("takes back no more than the credit left, the balance, or what running requests don't hold, naming the amount", async () => {
    const { operator, acme } = await cast();
    const refused = async (amount: number, message: string) => {
      const response = await operator.call("POST", path(acme.orgId), { amount, reason: "Too much" });
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({ error: message, fields: { amount: message } });
    };
    await refused(20.01, "Only $20.00 of granted credit is left to reverse");

    // Part of the credit is spent: that part stays spent.
    await h.deps.db.updateTable("billing_accounts").set({ balance_micros: 15_000_000 }).where("org_id", "=", acme.orgId).execute();
    await refused(16, "The balance is $15.00: a reversal can't take it below $0 (credit already spent stays spent)");

    await reserve(h.deps, { orgId: acme.orgId, tokenId: null, receiptId: "rcpt_running", amountMicros: 10_000_000 });
    await refused(
      6,
      "The balance is $15.00, of which running requests hold $10.00: a reversal can take at most $5.00 now, or their charges could take the balance below $0",
    );
    expect(await balanceMicros(acme.orgId)).toBe(15_000_000);
    expect(await reversalsAudited()).toEqual([]);

    expect((await operator.call("POST", path(acme.orgId), { amount: 5, reason: "What is free" })).status).toBe(200);
    expect(await balanceMicros(acme.orgId)).toBe(10_000_000);
  });
});
