import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LEDGER_CSV_HEADER } from "@contract/usage";
import { grantCredit } from "../../platform/billing/credits";
import { creditPayment, debitUsage } from "../../platform/billing/ledger";
import type { Harness, Session } from "./harness";
import { createHarness } from "./harness";
import { afterBom, micros as amountMicros, parseCsv } from "../csv";

let clock: number;
let h: Harness;
let admin: Session & { orgId: number };
let member: Session;
let outsider: Session & { orgId: number };

beforeEach(async () => {
  clock = Date.UTC(2025, 2, 10, 12, 0, 0);
  h = await createHarness({}, () => clock);
  ({ admin, member, outsider } = await h.team());
});
afterEach(() => h.close());

const micros = (amount: string) => {
  expect(amount).toMatch(/^-?\d+\.\d{6}$/);
  return amountMicros(amount);
};

/** A seeded organization: credits, a card payment, and many metered requests costing fractions of a cent. */
async function seedLedger(orgId: number, debits: number) {
  await grantCredit(h.deps, orgId, 25, "trial");
  await creditPayment(h.deps, { orgId, paymentIntentId: `pi_${orgId}`, amountMicros: 10_000_000, description: "Added funds" });
  for (let i = 0; i < debits; i++) {
    clock += 61_000;
    await debitUsage(h.deps, { orgId, model: "llama", rateCardId: "rc-1", costMicros: 1_234 + ((i * 7919) % 4_567), description: `Chat, ${i} tokens` });
  }
  await grantCredit(h.deps, orgId, 0.01, "rounding, with a comma");
}

async function balanceMicros(orgId: number): Promise<number> {
  const row = await h.deps.db.selectFrom("billing_accounts").select("balance_micros").where("org_id", "=", orgId).executeTakeFirstOrThrow();
  return Number(row.balance_micros);
}

describe("GET /billing/ledger/export", () => {
  it("sums, to the micro-dollar and so to the cent, to the ledger and to the balance", async () => {
    await seedLedger(admin.orgId, 1234);
    await seedLedger(outsider.orgId, 3);
    const response = await member.call("GET", "/billing/ledger/export");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="ledger.csv"');
    const [header, ...rows] = parseCsv(afterBom(await response.arrayBuffer()));
    expect(header).toEqual([...LEDGER_CSV_HEADER]);
    expect(rows).toHaveLength(1234 + 3);
    const exported = rows.reduce((sum, r) => sum + micros(r[5]), 0);

    const ledger = await h.deps.db
      .selectFrom("ledger_entries")
      .select((eb) => eb.fn.sum<number>("change_micros").as("sum"))
      .where("org_id", "=", admin.orgId)
      .executeTakeFirstOrThrow();
    expect(exported).toBe(Number(ledger.sum));
    expect(exported).toBe(await balanceMicros(admin.orgId));
    const balance: number = await (await admin.call("GET", "/billing/balance")).json();
    expect(Math.round(exported / 10_000)).toBe(Math.round(balance * 100));
    // Sub-cent rows are exported exactly, and text with a comma is quoted.
    expect(rows.some((r) => /^-0\.00\d{4}$/.test(r[5]) && !r[5].endsWith("0000"))).toBe(true);
    expect(rows.at(-1)).toEqual([expect.any(String), expect.any(String), "Credit: rounding, with a comma", "", "", "0.010000"]);
    // Oldest first, ids rising, none twice (the file spans two keyset pages).
    const ids = rows.map((r) => Number(r[0]));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("writes times in the screen's time zone and keeps a range to that zone's local days", async () => {
    // 23:30 UTC on 9 March is 00:30 on 10 March in Paris (UTC+1) and 18:30 on 9 March in New York (UTC-5).
    clock = Date.UTC(2025, 2, 9, 23, 30, 0);
    await grantCredit(h.deps, admin.orgId, 10, "late");
    clock = Date.UTC(2025, 2, 10, 10, 0, 0);
    await grantCredit(h.deps, admin.orgId, 20, "morning");

    const paris = parseCsv(
      afterBom(await (await admin.call("GET", "/billing/ledger/export?from=2025-03-10&to=2025-03-10&tz=Europe/Paris")).arrayBuffer()),
    ).slice(1);
    expect(paris.map((r) => r[1])).toEqual(["2025-03-10T00:30:00.000+01:00", "2025-03-10T11:00:00.000+01:00"]);
    const newYork = parseCsv(
      afterBom(await (await admin.call("GET", "/billing/ledger/export?from=2025-03-09&to=2025-03-09&tz=America/New_York")).arrayBuffer()),
    ).slice(1);
    expect(newYork.map((r) => [r[1], r[5]])).toEqual([["2025-03-09T19:30:00.000-04:00", "10.000000"]]);
    const utc = parseCsv(afterBom(await (await admin.call("GET", "/billing/ledger/export?from=2025-03-10&tz=")).arrayBuffer())).slice(1);
    expect(utc.map((r) => r[1])).toEqual(["2025-03-10T10:00:00.000Z"]);
    // An unknown zone falls back to UTC, as the screen does without the client hint.
    const unknown = parseCsv(afterBom(await (await admin.call("GET", "/billing/ledger/export?tz=Mars/Olympus")).arrayBuffer())).slice(1);
    expect(unknown.map((r) => r[1])).toEqual(["2025-03-09T23:30:00.000Z", "2025-03-10T10:00:00.000Z"]);
  });

  it("refuses a bad range, and the signed-out", async () => {
    for (const query of ["from=2025-13-01", "to=yesterday"]) {
      const response = await admin.call("GET", `/billing/ledger/export?${query}`);
      expect(response.status, query).toBe(400);
      expect((await response.json()).error).toMatch(/^(from|to): /);
    }
    const reversed = await admin.call("GET", "/billing/ledger/export?from=2025-03-10&to=2025-03-01");
    expect(reversed.status).toBe(400);
    expect((await reversed.json()).error).toBe("To is before From: no day is in this range.");
    expect((await h.fetch("/billing/ledger/export")).status).toBe(401);
  });
});
