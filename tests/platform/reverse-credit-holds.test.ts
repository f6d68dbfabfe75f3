import { afterEach, describe, expect, it } from "vitest";
import { recordUsage } from "../../platform/billing/charges";
import { grantCredit, reverseCredit } from "../../platform/billing/credits";
import { setPaymentMode } from "../../platform/billing/accounts";
import { release, reserve, settleWithin } from "../../platform/spend/reservations";
import type { Harness } from "./harness";
import { createHarness } from "./harness";

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const balanceMicros = async (orgId: number) =>
  Number((await h.deps.db.selectFrom("billing_accounts").select("balance_micros").where("org_id", "=", orgId).executeTakeFirstOrThrow()).balance_micros);

describe("reverse-credit and the holds of running requests (audit O, O7)", () => {
  it("takes back at most what no running request holds, and the request's charge then leaves the balance at or above $0", async () => {
    h = await createHarness();
    const admin = await h.admin();
    await grantCredit(h.deps, admin.orgId, 10, "trial");
    await reserve(h.deps, { orgId: admin.orgId, tokenId: null, receiptId: "rcpt_running", amountMicros: 8_000_000 });

    await expect(reverseCredit(h.deps, admin.orgId, 10, "trial ended")).rejects.toMatchObject({
      status: 409,
      message:
        "The balance is $10.00, of which running requests hold $8.00: a reversal can take at most $2.00 now, or their charges could take the balance below $0",
    });
    await expect(reverseCredit(h.deps, admin.orgId, 2.01, "trial ended")).rejects.toMatchObject({ status: 409 });
    expect(await balanceMicros(admin.orgId)).toBe(10_000_000);
    expect((await reverseCredit(h.deps, admin.orgId, 2, "trial ended")).balance).toBe(8);

    // The running request settles at less than its hold: the balance stays above $0.
    await recordUsage(h.deps, { orgId: admin.orgId, model: "m", rateCardId: null, costMicros: 6_000_000, description: "the running request" }, (trx) =>
      settleWithin(trx, h.deps.now(), { orgId: admin.orgId, tokenId: null, receiptId: "rcpt_running", costMicros: 6_000_000 }),
    );
    expect(await balanceMicros(admin.orgId)).toBe(2_000_000);
    // Nothing is held any more: the rest of the credit can go back.
    expect((await reverseCredit(h.deps, admin.orgId, 2, "the rest")).balance).toBe(0);
  });

  it("is not limited by holds in invoice mode, where a balance below zero is owed", async () => {
    h = await createHarness();
    const admin = await h.admin();
    await grantCredit(h.deps, admin.orgId, 10, "trial");
    await setPaymentMode(h.deps, admin.orgId, "invoice");
    await reserve(h.deps, { orgId: admin.orgId, tokenId: null, receiptId: "rcpt_invoice", amountMicros: 8_000_000 });
    expect((await reverseCredit(h.deps, admin.orgId, 10, "invoiced instead")).balance).toBe(0);
    await release(h.deps, "rcpt_invoice");
  });
});
