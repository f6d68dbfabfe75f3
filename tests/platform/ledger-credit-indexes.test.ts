import type { CompiledQuery } from "kysely";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { grantedCreditSum } from "../../platform/billing/credits";
import { refundedSum } from "../../platform/billing/reversals";
import type { Harness } from "./harness";
import { createHarness } from "./harness";

const postgres = Boolean(process.env.TEST_DATABASE_URL);
let h: Harness;
let orgId: number;

beforeEach(async () => {
  h = await createHarness();
  ({ orgId } = await h.admin());
  // A busy organization: thousands of metered calls, and one of each money row among them.
  const rows = (n: number, model: string | null, paymentIntentId: string | null, change: number) =>
    Array.from({ length: n }, () => ({
      org_id: orgId,
      created_at: 1,
      description: "x",
      model,
      rate_card_id: null,
      change_micros: change,
      payment_intent_id: paymentIntentId,
    }));
  for (let i = 0; i < 10; i++)
    await h.deps.db
      .insertInto("ledger_entries")
      .values(rows(500, "builtin", null, -1))
      .execute();
  await h.deps.db
    .insertInto("ledger_entries")
    .values([...rows(1, null, null, 5_000_000), ...rows(1, null, "pi_1", 9_000_000), ...rows(1, null, "ch_1:refunded:100", -1_000_000)])
    .execute();
  if (postgres) await sql`analyze ledger_entries`.execute(h.deps.db);
});
afterEach(() => h.close());

/** The indexes the database's plan for `query` reads through. */
async function indexesUsed(query: CompiledQuery): Promise<string> {
  if (!postgres) {
    const plan = await h.deps.db.executeQuery<{ detail: string }>({ ...query, sql: `explain query plan ${query.sql}` });
    return plan.rows.map((r) => r.detail).join("\n");
  }
  const plan = await h.deps.db.executeQuery<{ "QUERY PLAN": string }>({ ...query, sql: `explain ${query.sql}` });
  return plan.rows.map((r) => r["QUERY PLAN"]).join("\n");
}

describe("the ledger sums a money event takes under the billing lock", () => {
  it("counts the granted credit left from the granted rows alone, through their own index", async () => {
    const query = grantedCreditSum(h.deps.db, orgId);
    expect(Number((await query.executeTakeFirst())?.sum)).toBe(5_000_000);
    expect(await indexesUsed(query.compile())).toMatch(/ledger_entries_granted/);
  });

  it("counts a charge's refunds so far from the payment rows alone, through their own index", async () => {
    const query = refundedSum(h.deps.db, orgId, "ch_1:refunded:");
    expect(Number((await query.executeTakeFirst())?.sum)).toBe(-1_000_000);
    // PostgreSQL may take the unique index of payment ids instead: it too holds payment rows alone.
    expect(await indexesUsed(query.compile())).toMatch(postgres ? /ledger_entries_payments|ledger_entries_payment_intent_id_key/ : /ledger_entries_payments/);
  });
});
