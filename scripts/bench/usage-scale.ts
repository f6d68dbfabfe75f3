/**
 * Usage at scale (issue 15, decision 0088): seeds one organization with ~10^3 and one with ~10^6 usage
 * rows over 90 days, then times the /usage?days=90 report (rollups + the open hour's raw rows) against
 * the old plan (one GROUP BY over every raw row of the period).
 *
 *   npx tsx scripts/bench/usage-scale.ts                  # SQLite in a temporary file, 10^6 rows
 *   npx tsx scripts/bench/usage-scale.ts --rows=200000    # fewer rows
 *   DATABASE_URL=postgres://… npx tsx scripts/bench/usage-scale.ts   # an EMPTY PostgreSQL database
 *
 * Prints one JSON line per organization size (milliseconds); the last field is the ratio of the large
 * report to the small one, which should stay near 1.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import type { Deps } from "../../platform/context";
import type { DB } from "../../platform/db";
import { migrate, openDatabase } from "../../platform/db";
import { usageReport } from "../../platform/usage/service";

const DAY = 86_400_000;
const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const LARGE = arg("rows", 1_000_000);
const SMALL = arg("small", 1_000);
const RUNS = arg("runs", 7);

async function seed(db: DB, name: string, rows: number, now: number): Promise<number> {
  const org = await db.insertInto("organizations").values({ name, created_at: now }).returning("id").executeTakeFirstOrThrow();
  const user = await db
    .insertInto("users")
    .values({ name: `${name} user`, email: `${name}@bench.test`, email_verified: 1, created_at: now })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db.insertInto("memberships").values({ org_id: org.id, user_id: user.id, role: "admin", created_at: now }).execute();
  // The report's 90 days start at the first UTC day's midnight.
  const since = (Math.floor(now / DAY) - 89) * DAY;
  const batch = 1000;
  for (let start = 0; start < rows; start += batch) {
    const values = [];
    for (let i = start; i < Math.min(rows, start + batch); i++) {
      values.push({
        receipt_id: `${name}_${i}`,
        org_id: org.id,
        user_id: user.id,
        token_id: null,
        model: ["llama", "mistral", "qwen", "builtin"][i % 4],
        rate_card_id: null,
        prompt_tokens: 100 + (i % 900),
        completion_tokens: 50 + (i % 400),
        reasoning_tokens: i % 30,
        cost_micros: 100 + ((i * 7919) % 50_000),
        estimated: 0,
        outcome: "completed" as const,
        // Spread evenly over the 90 days, the newest in the open hour.
        created_at: since + Math.floor(((now - since) * (i + 1)) / rows),
      });
    }
    await db.insertInto("chat_usage").values(values).execute();
    if (rows >= 100_000 && start % 100_000 === 0) process.stderr.write(`  ${name}: ${start.toLocaleString("en-US")} rows\r`);
  }
  return org.id;
}

/** The plan before rollups (decision 0050): every raw row of the 90 days, grouped per request. */
async function rawReport(db: DB, orgId: number, now: number) {
  const since = (Math.floor(now / DAY) - 89) * DAY;
  const day = sql<number>`created_at / ${sql.lit(DAY)}`;
  return db
    .selectFrom("chat_usage")
    .select([day.as("day"), "model", "token_id", sql<number>`count(*)`.as("n"), sql<number>`cast(sum(cost_micros) as bigint)`.as("cost")])
    .where("org_id", "=", orgId)
    .where("created_at", ">=", since)
    .groupBy([day, "model", "token_id"])
    .execute();
}

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const value = await fn();
  return [performance.now() - t0, value];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const url = process.env.DATABASE_URL;
  const dir = url ? null : fs.mkdtempSync(path.join(os.tmpdir(), "usage-scale-"));
  const db = url ? openDatabase({ url }) : openDatabase({ path: path.join(dir!, "bench.db") });
  await migrate(db);
  const now = Date.now();
  const deps = { db, now: () => now, config: {} } as unknown as Deps;
  const ms = (n: number) => Math.round(n * 10) / 10;
  const results: Record<string, number>[] = [];
  for (const rows of [SMALL, LARGE]) {
    const [seedMs, orgId] = await time(() => seed(db, `bench${rows}_${now}`, rows, now));
    const raw: number[] = [];
    for (let i = 0; i < Math.min(RUNS, 3); i++) raw.push((await time(() => rawReport(db, orgId, now)))[0]);
    // The first report rolls every closed hour up once (what a busy organization pays once, not per view).
    const [firstMs, first] = await time(() => usageReport(deps, orgId, 90));
    const reports: number[] = [];
    for (let i = 0; i < RUNS; i++) reports.push((await time(() => usageReport(deps, orgId, 90)))[0]);
    if (first.totals.requests !== rows) throw new Error(`report counted ${first.totals.requests} of ${rows} rows`);
    const line = {
      rows,
      seed_ms: ms(seedMs),
      raw_group_by_p50_ms: ms(median(raw)),
      first_report_with_rollup_ms: ms(firstMs),
      report_p50_ms: ms(median(reports)),
    };
    results.push(line);
    console.log(JSON.stringify({ bench: "usage-scale", db: url ? "postgres" : "sqlite", ...line }));
  }
  const [small, large] = results;
  console.log(
    JSON.stringify({
      bench: "usage-scale",
      report_ratio_large_to_small: Math.round((large.report_p50_ms / small.report_p50_ms) * 100) / 100,
      raw_ratio_large_to_small: Math.round((large.raw_group_by_p50_ms / small.raw_group_by_p50_ms) * 100) / 100,
    }),
  );
  await db.destroy();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
