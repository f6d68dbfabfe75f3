import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { UsageReport } from "@contract/usage";
import { floorHour, HOUR_MS, ROLLUP_GRACE_MS, rollUp } from "../../platform/usage/rollup";
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

describe("usage rollups", () => {
  it("give the raw sums, per day, model, token and member", async () => {
    expect(await seed(clock - 10 * DAY, clock)).toBeGreaterThan(1500);
    const r = await report(admin, "days=7");
    // The closed hours were rolled up, and the report read them.
    const state = await h.deps.db.selectFrom("usage_rollup_state").selectAll().where("org_id", "=", admin.orgId).executeTakeFirstOrThrow();
    expect(Number(state.rolled_until)).toBe(floorHour(clock - ROLLUP_GRACE_MS));
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
    expect(Number(state.rolled_until)).toBe(floorHour(clock - ROLLUP_GRACE_MS));
  });

  it("roll each hour up once when many callers roll up at the same time", async () => {
    await seed(clock - 30 * DAY, clock);
    const boundaries = (await Promise.all(Array.from({ length: 6 }, () => rollUp(h.deps, admin.orgId)))).map((b) => b.hours);
    expect(new Set(boundaries)).toEqual(new Set([floorHour(clock - ROLLUP_GRACE_MS)]));
    await rollUp(h.deps, admin.orgId);
    const rolled = await h.deps.db
      .selectFrom("usage_hourly")
      .select((eb) => [eb.fn.sum<number>("requests").as("requests"), eb.fn.sum<number>("cost_micros").as("cost")])
      .where("org_id", "=", admin.orgId)
      .executeTakeFirstOrThrow();
    const raw = await rawTotals(admin.orgId, 0);
    const open = await rawTotals(admin.orgId, floorHour(clock - ROLLUP_GRACE_MS));
    expect(Number(rolled.requests)).toBe(raw.requests - open.requests);
    expect(Number(rolled.cost)).toBe(raw.costMicros - open.costMicros);
    expectEqual(await report(admin, "days=30"), await rawTotals(admin.orgId, (Math.floor(clock / DAY) - 29) * DAY));
  });

  it("start where an organization's usage starts, and at the boundary for one without usage", async () => {
    expect((await rollUp(h.deps, outsider.orgId)).hours).toBe(floorHour(clock - ROLLUP_GRACE_MS));
    expect((await h.deps.db.selectFrom("usage_hourly").select("org_id").execute()).length).toBe(0);
  });
});
