import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { creditPayment } from "../../platform/billing/ledger";
import { saveModel } from "../../platform/models/service";
import type { FakeUpstream } from "../fakes/openai-upstream";
import { startFakeUpstream } from "../fakes/openai-upstream";
import type { Harness } from "./harness";
import { createHarness } from "./harness";

/*
 * A completion whose metering the database refused as it ended (an outage) is written by a later
 * attempt. Its usage row, its ledger row and the month counters must all say the same instant: the
 * completion's when written soon after, the write's when written late (audit O, O5).
 */
let fake: FakeUpstream;
let h: Harness;
let clock = 0;
beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
afterEach(async () => {
  await h?.close();
});

async function meteredAcross(endedAt: number, writtenAt: number) {
  clock = endedAt;
  h = await createHarness({}, () => clock);
  await saveModel(h.deps, {
    name: "fake-slow",
    displayName: "Slow",
    provider: "vllm",
    contextSize: 32768,
    baseUrl: fake.url,
    upstreamModel: "slow",
    rateCard: { id: "rc", inputPerMillion: 1, outputPerMillion: 100 },
  });
  const admin = await h.admin();
  await creditPayment(h.deps, { orgId: admin.orgId, paymentIntentId: `pi_${endedAt}`, amountMicros: 50_000_000, description: "Added funds" });
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  const logs = vi.spyOn(console, "log").mockImplementation(() => {});
  try {
    const response = await admin.call("POST", "/chat/completions", { model: "fake-slow", messages: [{ role: "user", content: "hi" }], stream: true });
    // The database is away as the reply ends: its metering fails and is tried again a second later.
    await sql`alter table chat_usage rename to chat_usage_away`.execute(h.deps.db);
    await response.text();
    await new Promise((resolve) => setTimeout(resolve, 100));
    clock = writtenAt;
    await sql`alter table chat_usage_away rename to chat_usage`.execute(h.deps.db);
    await expect.poll(async () => (await h.deps.db.selectFrom("chat_usage").select("id").execute()).length, { timeout: 8_000 }).toBe(1);
  } finally {
    errors.mockRestore();
    logs.mockRestore();
  }
  const usage = await h.deps.db.selectFrom("chat_usage").select(["created_at", "cost_micros"]).executeTakeFirstOrThrow();
  const debit = await h.deps.db
    .selectFrom("ledger_entries")
    .select(["created_at", "change_micros"])
    .where("org_id", "=", admin.orgId)
    .where("model", "=", "fake-slow")
    .executeTakeFirstOrThrow();
  const account = await h.deps.db
    .selectFrom("billing_accounts")
    .select(["month_key", "month_spent_micros", "reserved_micros"])
    .where("org_id", "=", admin.orgId)
    .executeTakeFirstOrThrow();
  const cost = Number(usage.cost_micros);
  expect(cost).toBeGreaterThan(0);
  expect(Number(debit.change_micros)).toBe(-cost);
  return { admin, usageAt: Number(usage.created_at), ledgerAt: Number(debit.created_at), account, cost };
}

const day = (at: number) => new Date(at).toISOString().slice(0, 10);

describe("a completion metered late is dated once", () => {
  it("written 3 minutes after a reply ended at 23:58 on 30 November: usage, ledger and November's spend all say 30 November 23:58", async () => {
    const endedAt = Date.UTC(2026, 10, 30, 23, 58);
    const { admin, usageAt, ledgerAt, account, cost } = await meteredAcross(endedAt, Date.UTC(2026, 11, 1, 0, 1));
    expect(usageAt).toBe(endedAt);
    expect(ledgerAt).toBe(endedAt);
    expect(account).toMatchObject({ month_key: "2026-11", reserved_micros: 0 });
    expect(Number(account.month_spent_micros)).toBe(cost);
    // The ledger CSV of 30 November has it, that of 1 December doesn't, as the usage report does.
    const nov30 = await (await admin.call("GET", "/billing/ledger/export?from=2026-11-30&to=2026-11-30&tz=UTC")).text();
    const dec1 = await (await admin.call("GET", "/billing/ledger/export?from=2026-12-01&to=2026-12-01&tz=UTC")).text();
    expect(nov30).toContain("fake-slow");
    expect(dec1).not.toContain("fake-slow");
    const report = await (await admin.call("GET", "/usage?days=7")).json();
    const costOn = (date: string) => report.daily.find((d: { date: string }) => d.date === date)?.cost ?? 0;
    expect(costOn("2026-11-30")).toBeCloseTo(cost / 1e6, 6);
    expect(costOn("2026-12-01")).toBe(0);
    // December has spent nothing.
    expect((await (await admin.call("GET", "/billing/spend-cap")).json()).spentThisMonth).toBe(0);
  });

  it("written 11 minutes after a reply ended at 23:58 on 31 October: usage, ledger and November's spend all say 1 November 00:09", async () => {
    const writtenAt = Date.UTC(2026, 10, 1, 0, 9);
    const { admin, usageAt, ledgerAt, account, cost } = await meteredAcross(Date.UTC(2026, 9, 31, 23, 58), writtenAt);
    expect(usageAt).toBe(writtenAt);
    expect(ledgerAt).toBe(writtenAt);
    expect(day(usageAt)).toBe("2026-11-01");
    // The month counter counts it in November, as the usage report does: before, it went to October's.
    expect(account.month_key).toBe("2026-11");
    expect(Number(account.month_spent_micros)).toBe(cost);
    expect((await (await admin.call("GET", "/billing/spend-cap")).json()).spentThisMonth).toBe(cost / 1e6);
    const oct31 = await (await admin.call("GET", "/billing/ledger/export?from=2026-10-31&to=2026-10-31&tz=UTC")).text();
    const nov1 = await (await admin.call("GET", "/billing/ledger/export?from=2026-11-01&to=2026-11-01&tz=UTC")).text();
    expect(oct31).not.toContain("fake-slow");
    expect(nov1).toContain("fake-slow");
  });
});
