import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { KyselyPlugin } from "kysely";
import type { UsageReport } from "@contract/usage";
import {
  DAY_LEVELS,
  floorDay,
  floorHour,
  floorMinute,
  HOUR_MS,
  MINUTE_MS,
  ROLLUP_GRACE_MS,
  ROWS_PER_TRANSACTION,
  rollUp,
  rollUpActive,
  startUsageRoller,
} from "../../platform/usage/rollup";
import type { ResolvedFilters, UsageBreakdown } from "../../platform/usage/service";
import { readPlan, usageBreakdown } from "../../platform/usage/service";
import type { Harness, Session } from "./harness";
import { createHarness } from "./harness";

const DAY = 86_400_000;
let clock: number;
let h: Harness;
let admin: Session & { orgId: number };
let member: Session;
let outsider: Session & { orgId: number };
let tokenIds: number[];

beforeEach(async () => {
  clock = Date.UTC(2025, 0, 15, 12, 30, 0);
  h = await createHarness({}, () => clock);
  ({ admin, member, outsider } = await h.team());
  tokenIds = [];
  for (let i = 0; i < 2; i++) {
    const { publicId } = await (await admin.call("POST", "/tokens", { scopes: ["chat"], expiresAt: null })).json();
    tokenIds.push((await h.deps.db.selectFrom("api_tokens").select("id").where("public_id", "=", publicId).executeTakeFirstOrThrow()).id);
  }
});
afterEach(() => h.close());

/** A deterministic spread of rows: every few minutes over `days`, mixing models, tokens, members and orgs. */
async function seed(from: number, until: number, salt = 0) {
  const rows = [];
  let n = salt;
  for (let at = from; at < until; at += 7 * 60_000 + 13_000) {
    n += 1;
    const orgId = n % 11 === 0 ? outsider.orgId : admin.orgId;
    const tokenId = orgId === admin.orgId && n % 3 === 0 ? tokenIds[n % 2] : null;
    rows.push({
      receipt_id: `r_${salt}_${n}`,
      org_id: orgId,
      user_id: tokenId ? null : n % 2 ? admin.userId : member.userId,
      token_id: tokenId,
      model: ["builtin", "llama", "mistral"][n % 3],
      rate_card_id: null,
      prompt_tokens: (n * 7) % 500,
      completion_tokens: (n * 13) % 900,
      reasoning_tokens: n % 17,
      // Sub-cent costs, so a rounding anywhere shows.
      cost_micros: (n * 7919) % 123_457,
      estimated: 0,
      outcome: "completed" as const,
      created_at: at,
    });
  }
  for (let i = 0; i < rows.length; i += 400)
    await h.deps.db
      .insertInto("chat_usage")
      .values(rows.slice(i, i + 400))
      .execute();
  return rows.length;
}

/** The report computed the old way: every raw row summed, no rollup. */
async function rawTotals(orgId: number, since: number, where: { model?: string; tokenId?: number; userId?: number } = {}) {
  const rows = await h.deps.db.selectFrom("chat_usage").selectAll().where("org_id", "=", orgId).where("created_at", ">=", since).execute();
  const kept = rows.filter(
    (r) =>
      (where.model === undefined || r.model === where.model) &&
      (where.tokenId === undefined || r.token_id === where.tokenId) &&
      (where.userId === undefined || (r.token_id === null && r.user_id === where.userId)),
  );
  const daily = new Map<number, number>();
  for (const r of kept) daily.set(Math.floor(Number(r.created_at) / DAY), (daily.get(Math.floor(Number(r.created_at) / DAY)) ?? 0) + Number(r.cost_micros));
  return {
    requests: kept.length,
    promptTokens: kept.reduce((s, r) => s + Number(r.prompt_tokens), 0),
    completionTokens: kept.reduce((s, r) => s + Number(r.completion_tokens), 0),
    reasoningTokens: kept.reduce((s, r) => s + Number(r.reasoning_tokens), 0),
    costMicros: kept.reduce((s, r) => s + Number(r.cost_micros), 0),
    daily,
  };
}

async function report(session: Session, query: string): Promise<UsageReport> {
  const response = await session.call("GET", `/usage?${query}`);
  expect(response.status).toBe(200);
  return response.json();
}

function expectEqual(r: UsageReport, raw: Awaited<ReturnType<typeof rawTotals>>) {
  expect(r.totals.requests).toBe(raw.requests);
  expect(r.totals.promptTokens).toBe(raw.promptTokens);
  expect(r.totals.completionTokens).toBe(raw.completionTokens);
  expect(r.totals.reasoningTokens).toBe(raw.reasoningTokens);
  expect(Math.round(r.totals.cost * 1_000_000)).toBe(raw.costMicros);
  for (const d of r.daily) expect(Math.round(d.cost * 1_000_000)).toBe(raw.daily.get(Date.parse(`${d.date}T00:00:00Z`) / DAY) ?? 0);
}

const since7 = () => (Math.floor(clock / DAY) - 6) * DAY;

/** Requests and cost (micro-dollars) in the organization's hourly rows, or in one hour's. */
async function hourlySums(orgId: number, hour?: number) {
  let query = h.deps.db
    .selectFrom("usage_hourly")
    .select((eb) => [eb.fn.sum<number>("requests").as("requests"), eb.fn.sum<number>("cost_micros").as("cost")])
    .where("org_id", "=", orgId);
  if (hour !== undefined) query = query.where("hour", "=", hour);
  const row = await query.executeTakeFirstOrThrow();
  return [Number(row.requests), Number(row.cost)];
}

/** Requests and cost (micro-dollars) of the organization's raw rows in `[from, until)`. */
async function rawSums(orgId: number, from: number, until: number) {
  const rows = await h.deps.db
    .selectFrom("chat_usage")
    .select("cost_micros")
    .where("org_id", "=", orgId)
    .where("created_at", ">=", from)
    .where("created_at", "<", until)
    .execute();
  return [rows.length, rows.reduce((sum, r) => sum + Number(r.cost_micros), 0)];
}

describe("usage rollups", () => {
  it("give the raw sums, per day, model, token and member", async () => {
    expect(await seed(clock - 10 * DAY, clock)).toBeGreaterThan(1500);
    const r = await report(admin, "days=7");
    // The closed hours were rolled up, and the report read them.
    const state = await h.deps.db.selectFrom("usage_rollup_state").selectAll().where("org_id", "=", admin.orgId).executeTakeFirstOrThrow();
    expect(Number(state.rolled_until)).toBe(floorMinute(clock - ROLLUP_GRACE_MS));
    expect((await h.deps.db.selectFrom("usage_hourly").select("org_id").where("org_id", "=", admin.orgId).execute()).length).toBeGreaterThan(100);
    expectEqual(r, await rawTotals(admin.orgId, since7()));
    expectEqual(await report(admin, "days=7&model=llama"), await rawTotals(admin.orgId, since7(), { model: "llama" }));
    const tokens = await h.deps.db.selectFrom("api_tokens").select(["id", "public_id"]).where("id", "=", tokenIds[1]).executeTakeFirstOrThrow();
    expectEqual(await report(admin, `days=7&token=${tokens.public_id}`), await rawTotals(admin.orgId, since7(), { tokenId: tokens.id }));
    expectEqual(await report(admin, `days=7&member=${member.userId}`), await rawTotals(admin.orgId, since7(), { userId: member.userId }));
    expectEqual(await report(outsider, "days=7"), await rawTotals(outsider.orgId, since7()));
  });

  it("count a row of the open hour once, before and after its hour is rolled up", async () => {
    await seed(clock - 3 * DAY, clock);
    await report(admin, "days=7");
    await seed(clock - 5 * 60_000, clock, 100_000);
    expectEqual(await report(admin, "days=7"), await rawTotals(admin.orgId, since7()));
    clock += 3 * HOUR_MS;
    await seed(clock - 20 * 60_000, clock, 200_000);
    expectEqual(await report(admin, "days=7"), await rawTotals(admin.orgId, since7()));
    const state = await h.deps.db.selectFrom("usage_rollup_state").selectAll().where("org_id", "=", admin.orgId).executeTakeFirstOrThrow();
    expect(Number(state.rolled_until)).toBe(floorMinute(clock - ROLLUP_GRACE_MS));
  });

  it("roll the open hour up minute by minute, so a view reads raw rows of the grace only, each row once", async () => {
    clock = Date.UTC(2025, 0, 15, 12, 43, 20);
    await seed(clock - 2 * DAY, clock);
    const hourRow = (hour: number) => hourlySums(admin.orgId, hour);
    const rawOf = (from: number, until: number) => rawSums(admin.orgId, from, until);
    expectEqual(await report(admin, "days=7"), await rawTotals(admin.orgId, since7()));
    // 12:43:20 less the grace: the open hour's row holds 12:00 to 12:33, and only what follows is read raw.
    expect((await rollUp(h.deps, admin.orgId)).hours).toBe(Date.UTC(2025, 0, 15, 12, 33));
    const noon = Date.UTC(2025, 0, 15, 12);
    expect(await hourRow(noon)).toEqual(await rawOf(noon, Date.UTC(2025, 0, 15, 12, 33)));
    expect((await rawOf(noon, Date.UTC(2025, 0, 15, 12, 33)))[0]).toBeGreaterThan(1);

    // Rows keep arriving in the same hour; minutes later the row has grown by them, and by nothing twice.
    await seed(Date.UTC(2025, 0, 15, 12, 40), Date.UTC(2025, 0, 15, 12, 55), 100_000);
    clock = Date.UTC(2025, 0, 15, 12, 58, 5);
    expectEqual(await report(admin, "days=7"), await rawTotals(admin.orgId, since7()));
    expect(await hourRow(noon)).toEqual(await rawOf(noon, Date.UTC(2025, 0, 15, 12, 48)));
    // The next hour: the closed hour's row is whole, the new hour's row starts.
    await seed(Date.UTC(2025, 0, 15, 12, 55), Date.UTC(2025, 0, 15, 13, 20), 200_000);
    clock = Date.UTC(2025, 0, 15, 13, 31, 0);
    expectEqual(await report(admin, "days=7"), await rawTotals(admin.orgId, since7()));
    expect(await hourRow(noon + HOUR_MS)).toEqual(await rawOf(noon + HOUR_MS, Date.UTC(2025, 0, 15, 13, 21)));
    expect(await hourRow(noon)).toEqual(await rawOf(noon, noon + HOUR_MS));
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))("count a minute once when another process rolls it up while a view reads (PostgreSQL)", async () => {
    clock = Date.UTC(2025, 0, 15, 12, 43, 20);
    await seed(clock - 2 * DAY, clock);
    await seed(Date.UTC(2025, 0, 15, 12, 33), Date.UTC(2025, 0, 15, 12, 34), 300_000);
    expect((await rollUp(h.deps, admin.orgId)).hours).toBe(Date.UTC(2025, 0, 15, 12, 33));
    // Another process, its clock a minute on, rolls 12:33 into the open hour's row just after this view read
    // where the layers meet, and before it reads them.
    const other = { ...h.deps, now: () => clock + MINUTE_MS };
    let rolledMeanwhile = false;
    const plugin: KyselyPlugin = {
      transformQuery: (args) => args.node,
      async transformResult(args) {
        const row = args.result.rows[0];
        if (!rolledMeanwhile && row && typeof row === "object" && "rolled_until" in row) {
          rolledMeanwhile = true;
          await rollUp(other, admin.orgId);
        }
        return args.result;
      },
    };
    const viewing = { ...h.deps, db: h.deps.db.withPlugin(plugin) };
    const breakdown = await usageBreakdown(viewing, admin.orgId, since7(), floorDay(clock) + DAY, {});
    expect(rolledMeanwhile).toBe(true);
    const raw = await rawTotals(admin.orgId, since7());
    const days = [...breakdown.daily.values()];
    expect(days.reduce((sum, d) => sum + d.requests, 0)).toBe(raw.requests);
    expect(days.reduce((sum, d) => sum + d.costMicros, 0)).toBe(raw.costMicros);
  });

  it("are kept up to date in the background for every organization with new usage, and only those", async () => {
    await seed(clock - 3 * DAY, clock);
    const cursors = async () =>
      new Map((await h.deps.db.selectFrom("usage_rollup_state").select(["org_id", "rolled_until"]).execute()).map((s) => [s.org_id, Number(s.rolled_until)]));
    // Both organizations with usage are rolled up to the grace's minute; the others are left alone.
    expect(await rollUpActive(h.deps)).toBe(2);
    const target = floorMinute(clock - ROLLUP_GRACE_MS);
    expect(await cursors()).toEqual(new Map([admin.orgId, outsider.orgId].map((id) => [id, target])));
    for (const orgId of [admin.orgId, outsider.orgId]) expect(await hourlySums(orgId)).toEqual(await rawSums(orgId, 0, target));
    expect(await rollUpActive(h.deps)).toBe(0);

    // Half an hour later, only the organization with new rows is rolled again, and no row twice.
    clock += 30 * MINUTE_MS;
    await h.deps.db
      .insertInto("chat_usage")
      .values({
        receipt_id: "r_late",
        org_id: admin.orgId,
        user_id: admin.userId,
        token_id: null,
        model: "llama",
        rate_card_id: null,
        prompt_tokens: 10,
        completion_tokens: 20,
        reasoning_tokens: 0,
        cost_micros: 4_321,
        estimated: 0,
        outcome: "completed",
        created_at: clock - 15 * MINUTE_MS,
      })
      .execute();
    const outsiderBefore = (await cursors()).get(outsider.orgId);
    expect(await rollUpActive(h.deps)).toBe(1);
    expect((await cursors()).get(outsider.orgId)).toBe(outsiderBefore);
    expect((await cursors()).get(admin.orgId)).toBe(floorMinute(clock - ROLLUP_GRACE_MS));
    expect(await hourlySums(admin.orgId)).toEqual(await rawSums(admin.orgId, 0, floorMinute(clock - ROLLUP_GRACE_MS)));
    expectEqual(await report(admin, "days=7"), await rawTotals(admin.orgId, since7()));

    // The server's roller runs it on a timer, and stopping it waits for a run in progress.
    clock += 30 * MINUTE_MS;
    await seed(clock - 30 * MINUTE_MS, clock, 300_000);
    const roller = startUsageRoller(h.deps, 20);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await roller.stop();
    expect((await cursors()).get(admin.orgId)).toBe(floorMinute(clock - ROLLUP_GRACE_MS));
    expect(await hourlySums(admin.orgId)).toEqual(await rawSums(admin.orgId, 0, floorMinute(clock - ROLLUP_GRACE_MS)));
  });

  it("roll each hour up once when many callers roll up at the same time", async () => {
    await seed(clock - 30 * DAY, clock);
    const boundaries = (await Promise.all(Array.from({ length: 6 }, () => rollUp(h.deps, admin.orgId)))).map((b) => b.hours);
    expect(new Set(boundaries)).toEqual(new Set([floorMinute(clock - ROLLUP_GRACE_MS)]));
    await rollUp(h.deps, admin.orgId);
    const raw = await rawTotals(admin.orgId, 0);
    const open = await rawTotals(admin.orgId, floorMinute(clock - ROLLUP_GRACE_MS));
    expect(await hourlySums(admin.orgId)).toEqual([raw.requests - open.requests, raw.costMicros - open.costMicros]);
    expectEqual(await report(admin, "days=30"), await rawTotals(admin.orgId, (Math.floor(clock / DAY) - 29) * DAY));
  });

  it("start where an organization's usage starts, and at the boundary for one without usage", async () => {
    expect((await rollUp(h.deps, outsider.orgId)).hours).toBe(floorMinute(clock - ROLLUP_GRACE_MS));
    expect((await h.deps.db.selectFrom("usage_hourly").select("org_id").execute()).length).toBe(0);
  });

  it("roll a long backlog up a bounded number of rows per transaction, letting other requests run in between", async () => {
    // About a thousand calls a day for three weeks: a week of them is more than one transaction may read.
    for (let salt = 0; salt < 5; salt++) await seed(clock - 21 * DAY, clock, salt * 1_000_000);
    type Cursors = { rolled_until: number; days_until: number | null };
    const cursors: Cursors[] = [];
    const readCursors = async () =>
      (await h.deps.db.selectFrom("usage_rollup_state").select(["rolled_until", "days_until"]).where("org_id", "=", admin.orgId).executeTakeFirst()) as
        Cursors | undefined;
    // The roll-up's transactions, each followed by a look at where it left the cursors.
    const db = new Proxy(h.deps.db, {
      get(target, property) {
        if (property === "transaction")
          return () => ({
            execute: async <T>(work: Parameters<ReturnType<typeof target.transaction>["execute"]>[0]) => {
              const result = (await target.transaction().execute(work)) as T;
              const now = await readCursors();
              if (now) cursors.push({ rolled_until: Number(now.rolled_until), days_until: now.days_until === null ? null : Number(now.days_until) });
              return result;
            },
          });
        const value = Reflect.get(target, property) as unknown;
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    let turns = 0;
    let next = setImmediate(function turn() {
      turns += 1;
      next = setImmediate(turn);
    });
    const { hours, days } = await rollUp({ ...h.deps, db }, admin.orgId);
    clearImmediate(next);
    expect(hours).toBe(floorMinute(clock - ROLLUP_GRACE_MS));
    expect(days).toBe(floorDay(hours));

    const rawParts: number[] = [];
    const hourlyParts: number[] = [];
    // The first transaction starts where the organization's usage starts: its hour, then its day.
    const first = await h.deps.db
      .selectFrom("chat_usage")
      .select((eb) => eb.fn.min("created_at").as("at"))
      .where("org_id", "=", admin.orgId)
      .executeTakeFirstOrThrow();
    let [rolled, daysRolled] = [floorHour(Number(first.at)), floorDay(Number(first.at))];
    for (const after of cursors) {
      if (after.rolled_until !== rolled) rawParts.push((await rawSums(admin.orgId, rolled, after.rolled_until))[0]);
      if (after.days_until !== null && after.days_until !== daysRolled) {
        const rows = await h.deps.db
          .selectFrom("usage_hourly")
          .select("hour")
          .where("org_id", "=", admin.orgId)
          .where("hour", ">=", daysRolled)
          .where("hour", "<", after.days_until)
          .execute();
        hourlyParts.push(rows.length);
        daysRolled = after.days_until;
      }
      rolled = after.rolled_until;
    }
    const hourlyRows = (await h.deps.db.selectFrom("usage_hourly").select("hour").where("org_id", "=", admin.orgId).where("hour", "<", days).execute()).length;
    expect(rawParts.reduce((a, b) => a + b, 0)).toBeGreaterThan(3 * ROWS_PER_TRANSACTION.raw);
    expect(Math.max(...rawParts)).toBeLessThanOrEqual(ROWS_PER_TRANSACTION.raw);
    expect(hourlyParts.reduce((a, b) => a + b, 0)).toBe(hourlyRows);
    expect(hourlyRows).toBeGreaterThan(ROWS_PER_TRANSACTION.hourly);
    expect(Math.max(...hourlyParts)).toBeLessThanOrEqual(ROWS_PER_TRANSACTION.hourly);
    // The event loop turned between the parts (on SQLite, a transaction holds it).
    expect(turns).toBeGreaterThanOrEqual(rawParts.length + hourlyParts.length - 2);
    expect(await hourlySums(admin.orgId)).toEqual(await rawSums(admin.orgId, 0, hours));
    expectEqual(await report(admin, "days=30"), await rawTotals(admin.orgId, (Math.floor(clock / DAY) - 29) * DAY));
  });

  it("read each instant of a window from exactly one layer", () => {
    const day0 = Date.UTC(2025, 0, 10);
    const hours = [0, 1, 5, 23, 24, 25, 47, 48, 49, 71, 72, 95, 96].map((n) => day0 + n * HOUR_MS);
    // The hourly boundary is a minute: the open hour's row holds its hour up to it.
    const boundaries = [...hours, ...[0, 23, 24, 48, 71, 95].map((n) => day0 + n * HOUR_MS + 33 * MINUTE_MS)];
    const failures: string[] = [];
    for (const since of hours)
      for (const until of hours)
        for (const days of [day0, day0 + DAY, day0 + 2 * DAY, day0 + 3 * DAY])
          for (const hoursBoundary of boundaries) {
            if (since >= until || days > hoursBoundary) continue;
            const plan = readPlan(since, until, { days, hours: hoursBoundary });
            const ranges: [string, number, number][] = [
              ...(plan.days ? [["days", ...plan.days] as [string, number, number]] : []),
              ...plan.hours.map(([a, z]) => ["hours", a, z] as [string, number, number]),
              ...(plan.raw ? [["raw", ...plan.raw] as [string, number, number]] : []),
            ];
            const where = `since ${since} until ${until} days ${days} hours ${hoursBoundary}`;
            if (!ranges.every(([, a, z]) => since <= a && z <= until && a < z)) failures.push(`${where}: a range outside the window`);
            if (plan.days && (plan.days[0] % DAY !== 0 || plan.days[1] % DAY !== 0)) failures.push(`${where}: days not whole`);
            // Every ten minutes of the window are covered once, by a layer that holds them.
            for (let at = since; at < until; at += 10 * MINUTE_MS) {
              const covering = ranges.filter(([, a, z]) => a <= at && at < z);
              if (covering.length !== 1) failures.push(`${where}: ${at} read ${covering.length} times`);
              else if (covering[0][0] === "days" ? at >= days : covering[0][0] === "hours" ? at >= hoursBoundary : at < hoursBoundary)
                failures.push(`${where}: ${at} read from ${covering[0][0]}, which does not hold it`);
            }
          }
    expect(failures).toEqual([]);
  });
});

/** The breakdown computed the old way: every raw row of `[since, until)` summed in JavaScript. */
async function rawBreakdown(orgId: number, since: number, until: number, where: ResolvedFilters = {}) {
  const rows = await h.deps.db
    .selectFrom("chat_usage")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("created_at", ">=", since)
    .where("created_at", "<", until)
    .execute();
  const kept = rows.filter(
    (r) =>
      (where.model === undefined || r.model === where.model) &&
      (where.tokenId === undefined || r.token_id === where.tokenId) &&
      (where.userId === undefined || (r.token_id === null && r.user_id === where.userId)),
  );
  const out = { daily: new Map<number, string>(), models: new Map<string, string>(), tokens: new Map<number, string>(), members: new Map<number, string>() };
  const sums = new Map<string, number[]>();
  const bump = (key: string, r: (typeof kept)[number]) => {
    const s = sums.get(key) ?? [0, 0, 0, 0, 0];
    s[0] += 1;
    s[1] += Number(r.prompt_tokens);
    s[2] += Number(r.completion_tokens);
    s[3] += Number(r.reasoning_tokens);
    s[4] += Number(r.cost_micros);
    sums.set(key, s);
  };
  for (const r of kept) {
    bump(`d${Math.floor(Number(r.created_at) / DAY)}`, r);
    bump(`m${r.model}`, r);
    bump(`t${r.token_id ?? 0}`, r);
    if (r.token_id === null) bump(`u${r.user_id ?? 0}`, r);
  }
  for (const [key, s] of sums) {
    const text = s.join(",");
    if (key[0] === "d") out.daily.set(Number(key.slice(1)), text);
    if (key[0] === "m") out.models.set(key.slice(1), text);
    if (key[0] === "t") out.tokens.set(Number(key.slice(1)), text);
    if (key[0] === "u") out.members.set(Number(key.slice(1)), text);
  }
  return out;
}

function flat(b: UsageBreakdown) {
  const text = <K>(m: Map<K, { requests: number; promptTokens: number; completionTokens: number; reasoningTokens: number; costMicros: number }>) =>
    new Map([...m].map(([k, s]) => [k, [s.requests, s.promptTokens, s.completionTokens, s.reasoningTokens, s.costMicros].join(",")]));
  return { daily: text(b.daily), models: text(b.models), tokens: text(b.tokens), members: text(b.members) };
}

describe("the daily layer", () => {
  const filterSets = (): ResolvedFilters[] => [
    {},
    { model: "llama" },
    { tokenId: tokenIds[0] },
    { userId: member.userId },
    { model: "mistral", tokenId: tokenIds[1] },
    { model: "builtin", userId: admin.userId },
    { model: "absent" },
  ];

  async function expectSameAsRaw(since: number, until: number) {
    for (const filters of filterSets()) {
      const label = `${new Date(since).toISOString()}..${new Date(until).toISOString()} ${JSON.stringify(filters)}`;
      expect(flat(await usageBreakdown(h.deps, admin.orgId, since, until, filters)), label).toEqual(await rawBreakdown(admin.orgId, since, until, filters));
    }
  }

  it("rolls whole days up at four levels that agree with each other and with the hourly rows", async () => {
    await seed(clock - 12 * DAY, clock);
    const { days, hours } = await rollUp(h.deps, admin.orgId);
    expect(hours).toBe(floorMinute(clock - ROLLUP_GRACE_MS));
    expect(days).toBe(floorDay(hours));
    const daily = await h.deps.db.selectFrom("usage_daily").selectAll().where("org_id", "=", admin.orgId).execute();
    expect(daily.length).toBeGreaterThan(12 * 4);
    const hourly = await h.deps.db.selectFrom("usage_hourly").selectAll().where("org_id", "=", admin.orgId).where("hour", "<", days).execute();
    const perDay = (rows: { requests: number; cost_micros: number }[], dayOf: (r: never) => number) => {
      const m = new Map<number, string>();
      const acc = new Map<number, [number, number]>();
      for (const r of rows) {
        const d = dayOf(r as never);
        const a = acc.get(d) ?? [0, 0];
        acc.set(d, [a[0] + Number(r.requests), a[1] + Number(r.cost_micros)]);
      }
      for (const [d, a] of acc) m.set(d, a.join(","));
      return m;
    };
    const fromHours = perDay(hourly, (r: { hour: number }) => floorDay(Number(r.hour)));
    for (const { level } of DAY_LEVELS)
      expect(
        perDay(
          daily.filter((r) => Number(r.level) === level),
          (r: { day: number }) => Number(r.day),
        ),
        `level ${level}`,
      ).toEqual(fromHours);
  });

  it("gives the raw sums for windows that start and end mid-day, across day boundaries, with every filter", async () => {
    await seed(clock - 12 * DAY, clock);
    const today = floorDay(clock);
    await expectSameAsRaw(today - 7 * DAY, today + DAY); // whole days, then today's hours and the open hour
    await expectSameAsRaw(today - 7 * DAY + 5 * HOUR_MS, today + DAY); // starts mid-day
    await expectSameAsRaw(today - 7 * DAY + 5 * HOUR_MS, today - 2 * DAY + 17 * HOUR_MS); // starts and ends mid-day
    await expectSameAsRaw(today - 3 * DAY + 23 * HOUR_MS, today - DAY + HOUR_MS); // a day boundary on each side
    await expectSameAsRaw(today - 2 * DAY + 3 * HOUR_MS, today - 2 * DAY + 9 * HOUR_MS); // inside one day
    await expectSameAsRaw(today + 2 * HOUR_MS, today + 13 * HOUR_MS); // today: hours, then raw rows
    await expectSameAsRaw(floorHour(clock), today + DAY); // the open hour alone
  });

  it("stays exact as the clock crosses midnight, before and after the day is rolled up", async () => {
    clock = Date.UTC(2025, 0, 15, 23, 40);
    await seed(clock - 5 * DAY, clock);
    await expectSameAsRaw(floorDay(clock) - 3 * DAY, floorDay(clock) + 2 * DAY);
    const moments = [Date.UTC(2025, 0, 16, 0, 5), Date.UTC(2025, 0, 16, 0, 15), Date.UTC(2025, 0, 16, 1, 20), Date.UTC(2025, 0, 17, 0, 30)];
    for (const [i, at] of moments.entries()) {
      const before = clock;
      clock = at;
      await seed(before, clock, 400_000 + i * 10_000);
      await expectSameAsRaw(floorDay(clock) - 3 * DAY, floorDay(clock) + DAY);
      expectEqual(await report(admin, "days=7"), await rawTotals(admin.orgId, since7()));
    }
    const state = await h.deps.db.selectFrom("usage_rollup_state").selectAll().where("org_id", "=", admin.orgId).executeTakeFirstOrThrow();
    expect(Number(state.days_until)).toBe(Date.UTC(2025, 0, 17));
  });

  it("rolls each day up once when many callers roll up at the same time", async () => {
    await seed(clock - 40 * DAY, clock);
    await Promise.all(Array.from({ length: 6 }, () => rollUp(h.deps, admin.orgId)));
    clock += 2 * DAY;
    await seed(clock - 2 * DAY, clock, 300_000);
    const all = await Promise.all(Array.from({ length: 6 }, () => rollUp(h.deps, admin.orgId)));
    expect(new Set(all.map((b) => b.days))).toEqual(new Set([floorDay(clock - ROLLUP_GRACE_MS)]));
    const days = all[0].days;
    for (const { level } of DAY_LEVELS) {
      const rolled = await h.deps.db
        .selectFrom("usage_daily")
        .select((eb) => [eb.fn.sum<number>("requests").as("requests"), eb.fn.sum<number>("cost_micros").as("cost")])
        .where("org_id", "=", admin.orgId)
        .where("level", "=", level)
        .executeTakeFirstOrThrow();
      const raw = await rawBreakdown(admin.orgId, 0, days);
      const [requests, cost] = [...raw.daily.values()].reduce(
        ([n, c], text) => {
          const s = text.split(",").map(Number);
          return [n + s[0], c + s[4]];
        },
        [0, 0],
      );
      expect([Number(rolled.requests), Number(rolled.cost)], `level ${level}`).toEqual([requests, cost]);
    }
    expectEqual(await report(admin, "days=90"), await rawTotals(admin.orgId, (Math.floor(clock / DAY) - 89) * DAY));
  });

  it("starts from the hourly rows for an organization rolled up before the daily layer existed", async () => {
    await seed(clock - 9 * DAY, clock);
    await rollUp(h.deps, admin.orgId);
    await h.deps.db.deleteFrom("usage_daily").where("org_id", "=", admin.orgId).execute();
    await h.deps.db.updateTable("usage_rollup_state").set({ days_until: null }).where("org_id", "=", admin.orgId).execute();
    clock += 3 * HOUR_MS;
    expectEqual(await report(admin, "days=30"), await rawTotals(admin.orgId, (Math.floor(clock / DAY) - 29) * DAY));
    const state = await h.deps.db.selectFrom("usage_rollup_state").selectAll().where("org_id", "=", admin.orgId).executeTakeFirstOrThrow();
    expect(Number(state.days_until)).toBe(floorDay(clock - ROLLUP_GRACE_MS));
  });
});
