import { CompiledQuery, sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { UsageReport } from "@contract/usage";
import { USAGE_CSV_HEADER } from "@contract/usage";
import type { Harness, Session } from "./harness";
import { createHarness } from "./harness";
import { afterBom, micros, parseCsv } from "../csv";
import { usageCsv } from "../../platform/usage/export";
import { chattedIn } from "../../platform/usage/service";

const DAY = 86_400_000;
let clock: number;
let h: Harness;
let admin: Session & { orgId: number };
let member: Session;
let outsider: Session & { orgId: number };
let receipts = 0;
let tokenA: { id: number; publicId: string };
let tokenB: { id: number; publicId: string };
let foreignToken: { id: number; publicId: string };

async function makeToken(session: Session): Promise<{ id: number; publicId: string }> {
  const created = await session.call("POST", "/tokens", { scopes: ["chat"], expiresAt: null });
  expect(created.status).toBe(201);
  const { publicId } = await created.json();
  const row = await h.deps.db.selectFrom("api_tokens").select("id").where("public_id", "=", publicId).executeTakeFirstOrThrow();
  return { id: row.id, publicId };
}

beforeEach(async () => {
  clock = Date.UTC(2025, 0, 15, 12, 0, 0);
  h = await createHarness({}, () => clock);
  ({ admin, member, outsider } = await h.team());
  tokenA = await makeToken(admin);
  tokenB = await makeToken(admin);
  foreignToken = await makeToken(outsider);
});
afterEach(() => h.close());

type PlanNode = { "Relation Name"?: string; "Actual Rows": number; "Actual Loops": number; "Rows Removed by Filter"?: number; Plans?: PlanNode[] };

/** The rows of chat_usage an analyzed plan read: those it kept and those its filter dropped. */
function usageRowsRead(node: PlanNode): number {
  const own = node["Relation Name"] === "chat_usage" ? (node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0)) * node["Actual Loops"] : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + usageRowsRead(child), 0);
}

async function record(row: { orgId: number; at: number; model?: string; userId?: number | null; tokenId?: number | null; costMicros?: number }) {
  receipts += 1;
  await h.deps.db
    .insertInto("chat_usage")
    .values({
      receipt_id: `rcpt_f${receipts}`,
      org_id: row.orgId,
      user_id: row.tokenId ? null : (row.userId ?? null),
      token_id: row.tokenId ?? null,
      model: row.model ?? "builtin",
      rate_card_id: null,
      prompt_tokens: 10,
      completion_tokens: 20,
      reasoning_tokens: 5,
      cost_micros: row.costMicros ?? 0,
      estimated: 0,
      outcome: "completed",
      created_at: row.at,
    })
    .execute();
}

async function report(session: Session, query: string): Promise<UsageReport> {
  const response = await session.call("GET", `/usage?${query}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

/** A small mixed organization: two members chatting in the console, two tokens, two models. */
async function seedMix() {
  await record({ orgId: admin.orgId, at: clock - 1000, userId: admin.userId, model: "llama", costMicros: 1_000_001 });
  await record({ orgId: admin.orgId, at: clock - 2 * DAY, userId: member.userId, model: "builtin" });
  await record({ orgId: admin.orgId, at: clock - 3 * DAY, userId: member.userId, model: "llama", costMicros: 250_000 });
  await record({ orgId: admin.orgId, at: clock - DAY, tokenId: tokenA.id, model: "llama", costMicros: 3_333 });
  await record({ orgId: admin.orgId, at: clock - 40 * DAY, tokenId: tokenA.id, model: "llama", costMicros: 7_000_000 });
  await record({ orgId: admin.orgId, at: clock - 5 * DAY, tokenId: tokenB.id, model: "builtin" });
  await record({ orgId: outsider.orgId, at: clock - 1000, tokenId: foreignToken.id, model: "llama", costMicros: 9_000_000 });
}

describe("GET /usage filters", () => {
  it("filters by model", async () => {
    await seedMix();
    const r = await report(admin, "days=30&model=llama");
    expect(r.totals.requests).toBe(3);
    expect(r.totals.cost).toBeCloseTo(1.253334, 6);
    expect(r.models.map((m) => m.model)).toEqual(["llama"]);
  });

  it("filters by API token, only that token's calls", async () => {
    await seedMix();
    const r = await report(admin, `days=90&token=${tokenA.publicId}`);
    expect(r.totals.requests).toBe(2);
    expect(r.sources).toEqual([
      expect.objectContaining({ kind: "console", requests: 0 }),
      expect.objectContaining({ kind: "api", token: tokenA.publicId, requests: 2, cost: 7.003333 }),
    ]);
    expect(r.members).toEqual([]);
  });

  it("filters by member: that member's chats in the console", async () => {
    await seedMix();
    const r = await report(admin, `days=7&member=${member.userId}`);
    expect(r.totals.requests).toBe(2);
    expect(r.members).toEqual([expect.objectContaining({ member: member.userId, name: "Mia Member", requests: 2, cost: 0.25 })]);
    expect(r.sources.filter((s) => s.kind === "api")).toEqual([]);
  });

  it("breaks the console's chat down per member, busiest first", async () => {
    await seedMix();
    const r = await report(admin, "days=7");
    expect(r.members.map((m) => [m.member, m.requests])).toEqual([
      [admin.userId, 1],
      [member.userId, 2],
    ]);
  });

  it("combines filters, and treats a blank filter as none", async () => {
    await seedMix();
    expect((await report(admin, `days=7&model=llama&member=${member.userId}`)).totals.requests).toBe(1);
    expect((await report(admin, "days=7&model=&token=&member=")).totals.requests).toBe(5);
  });

  it("lets a member filter as the admin does", async () => {
    await seedMix();
    expect(await report(member, `days=90&token=${tokenA.publicId}`)).toEqual(await report(admin, `days=90&token=${tokenA.publicId}`));
  });

  it("answers 404 for a token or member of another organization, and never shows its usage", async () => {
    await seedMix();
    const token = await admin.call("GET", `/usage?token=${foreignToken.publicId}`);
    expect(token.status).toBe(404);
    expect(await token.json()).toEqual({ error: "Token not found" });
    const who = await admin.call("GET", `/usage?member=${outsider.userId}`);
    expect(who.status).toBe(404);
    expect(await who.json()).toEqual({ error: "Member not found" });
    expect((await admin.call("GET", `/usage/export?token=${foreignToken.publicId}`)).status).toBe(404);
    expect((await report(outsider, "days=7")).totals.cost).toBe(9);
  });

  it("filters by a member who has left by the chats they had here, and names them as having left (decision 0140)", async () => {
    await seedMix();
    expect((await admin.call("DELETE", `/organizations/members/${member.userId}`)).status).toBe(200);
    const r = await report(admin, `days=7&member=${member.userId}`);
    expect(r.totals.requests).toBe(2);
    expect(r.members).toEqual([expect.objectContaining({ member: member.userId, name: "Mia Member", requests: 2 })]);
    expect(r.formerMembers).toEqual([{ member: member.userId, name: "Mia Member" }]);
    // A period in which they did not chat still names them: the filter shows them.
    clock += 20 * DAY;
    const quiet = await report(admin, `days=7&member=${member.userId}`);
    expect(quiet.totals.requests).toBe(0);
    expect(quiet.formerMembers).toEqual([{ member: member.userId, name: "Mia Member" }]);
    // Unfiltered, the report tells who of its members has left; a current member is not in that list.
    const all = await report(admin, "days=30");
    expect(all.members.map((m) => m.member)).toEqual([admin.userId, member.userId]);
    expect(all.formerMembers).toEqual([{ member: member.userId, name: "Mia Member" }]);

    const csv = await admin.call("GET", `/usage/export?days=30&member=${member.userId}`);
    expect(csv.status).toBe(200);
    const rows = parseCsv(afterBom(await csv.arrayBuffer())).slice(1);
    expect(rows.map((row) => [row[3], row[5]])).toEqual([
      ["console", "Mia Member"],
      ["console", "Mia Member"],
    ]);
  });

  it("answers 404 for someone who left without chatting here, as for anyone else", async () => {
    expect((await admin.call("DELETE", `/organizations/members/${member.userId}`)).status).toBe(200);
    for (const path of [`/usage?member=${member.userId}`, `/usage/export?member=${member.userId}`]) {
      const response = await admin.call("GET", path);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: "Member not found" });
    }
    // Chats in another organization do not make them known here.
    await record({ orgId: outsider.orgId, at: clock - 1000, userId: member.userId });
    expect((await admin.call("GET", `/usage?member=${member.userId}`)).status).toBe(404);
  });

  it("tells whether someone chatted here from the index of console rows, not by reading the organization's usage", async () => {
    // A busy organization: thousands of API calls (no user) and console chats of many people.
    const values = Array.from({ length: 4000 }, (_, i) => ({
      receipt_id: `busy_${i}`,
      org_id: admin.orgId,
      user_id: i % 4 === 0 ? 1_000 + i : null,
      token_id: i % 4 === 0 ? null : tokenA.id,
      model: "builtin",
      rate_card_id: null,
      prompt_tokens: 1,
      completion_tokens: 1,
      reasoning_tokens: 0,
      cost_micros: 1,
      estimated: 0,
      outcome: "completed" as const,
      created_at: clock - i * 1000,
    }));
    for (let i = 0; i < values.length; i += 500)
      await h.deps.db
        .insertInto("chat_usage")
        .values(values.slice(i, i + 500))
        .execute();
    const postgres = Boolean(process.env.TEST_DATABASE_URL);
    if (postgres) await sql`analyze chat_usage`.execute(h.deps.db);
    const query = chattedIn(h.deps.db, admin.orgId, 1_400).compile();
    expect(await chattedIn(h.deps.db, admin.orgId, 1_400).executeTakeFirst()).toEqual({ user_id: 1_400 });
    expect(await chattedIn(h.deps.db, admin.orgId, 1_401).executeTakeFirst()).toBeUndefined();
    const plan = postgres
      ? (await h.deps.db.executeQuery<{ "QUERY PLAN": string }>({ ...query, sql: `explain ${query.sql}` })).rows.map((r) => r["QUERY PLAN"])
      : (await h.deps.db.executeQuery<{ detail: string }>({ ...query, sql: `explain query plan ${query.sql}` })).rows.map((r) => r.detail);
    expect(plan.join("\n")).toMatch(/chat_usage_member/);
  });

  it("answers 400 for a member that is not an id", async () => {
    const response = await admin.call("GET", "/usage?member=abc");
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe("member: must be a member id");
  });
});

describe("GET /usage/export", () => {
  it("streams the current view as CSV, one line per completion, its cost summing to the report's", async () => {
    await seedMix();
    const response = await admin.call("GET", "/usage/export?days=30&model=llama");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="usage-2024-12-17-to-2025-01-15-llama\.csv"$/);
    const [header, ...rows] = parseCsv(afterBom(await response.arrayBuffer()));
    expect(header).toEqual([...USAGE_CSV_HEADER]);
    expect(rows).toHaveLength(3);
    const cost = rows.reduce((sum, r) => sum + micros(r[9]), 0);
    expect(cost).toBe(1_253_334);
    expect(rows.map((r) => r[0])).toEqual([...rows.map((r) => r[0])].sort());
    expect(rows.find((r) => r[3] === "api")).toEqual(expect.arrayContaining([tokenA.publicId, "0.003333"]));
    expect(rows.find((r) => r[5] === "Mia Member")).toEqual(expect.arrayContaining(["console", "0.250000"]));
    const view = await report(admin, "days=30&model=llama");
    expect(cost / 1_000_000).toBeCloseTo(view.totals.cost, 6);
  });

  it("pages through more rows than one query reads, in order, none twice, times shared across a page's end", async () => {
    const values = Array.from({ length: 2345 }, (_, i) => ({
      receipt_id: `bulk_${i}`,
      org_id: admin.orgId,
      user_id: admin.userId,
      token_id: null,
      model: "builtin",
      rate_card_id: null,
      prompt_tokens: 1,
      completion_tokens: 1,
      reasoning_tokens: 0,
      cost_micros: i,
      estimated: 0,
      outcome: "completed" as const,
      // Many rows share a time, so the keyset must break ties by id.
      created_at: clock - (i % 7) * 1000,
    }));
    for (let i = 0; i < values.length; i += 500)
      await h.deps.db
        .insertInto("chat_usage")
        .values(values.slice(i, i + 500))
        .execute();
    const rows = parseCsv(afterBom(await (await admin.call("GET", "/usage/export?days=7")).arrayBuffer())).slice(1);
    expect(rows).toHaveLength(2345);
    // Oldest first, then in the order recorded: each page (1,000 rows) ends inside a run of equal times.
    const expected = [...values].sort((a, b) => a.created_at - b.created_at || Number(a.receipt_id.slice(5)) - Number(b.receipt_id.slice(5)));
    expect(rows.map((r) => r[1])).toEqual(expected.map((v) => v.receipt_id));
    expect(rows.reduce((sum, r) => sum + micros(r[9]), 0)).toBe((2344 * 2345) / 2);
  });

  // PostgreSQL tells how many rows a query read (SQLite does not): a page must start its index range at
  // the cursor, or a long export reads the rows before it again on every page, quadratic in its size.
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))("reads each row about once over all its pages (PostgreSQL)", async () => {
    const total = 3500;
    const start = clock - 6 * DAY;
    await sql`insert into chat_usage (receipt_id, org_id, user_id, token_id, model, rate_card_id, prompt_tokens, completion_tokens, reasoning_tokens, cost_micros, estimated, outcome, created_at)
      select 'bulk_' || i, ${admin.orgId}, null, null, 'builtin', null, 1, 1, 0, 1, 0, 'completed', ${sql.lit(start)} + i * 1000
      from generate_series(1, ${total}) as i`.execute(h.deps.db);
    const pages: CompiledQuery[] = [];
    const watched = h.deps.db.withPlugin({
      transformQuery: ({ node, queryId }) => {
        const compiled = h.deps.db.getExecutor().compileQuery(node, queryId);
        if (/from "chat_usage"/.test(compiled.sql)) pages.push(compiled);
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    const csv = afterBom(await (await usageCsv({ ...h.deps, db: watched }, admin.orgId, { days: 7 })).arrayBuffer());
    expect(parseCsv(csv)).toHaveLength(total + 1);
    expect(pages).toHaveLength(4);

    const read = await h.deps.db.connection().execute(async (db) => {
      // The plan the index is for, which the planner picks on a large table: read in `created_at` order,
      // stopping at the page's end. A table this small may be read whole and sorted, which says nothing.
      await sql`set enable_seqscan = off`.execute(db);
      await sql`set enable_bitmapscan = off`.execute(db);
      await sql`set enable_sort = off`.execute(db);
      try {
        let rows = 0;
        for (const page of pages) {
          const explained = await db.executeQuery<{ "QUERY PLAN": unknown }>(
            CompiledQuery.raw(`explain (analyze, format json) ${page.sql}`, [...page.parameters]),
          );
          rows += usageRowsRead((explained.rows[0]["QUERY PLAN"] as { Plan: PlanNode }[])[0].Plan);
        }
        return rows;
      } finally {
        await sql`reset all`.execute(db);
      }
    });
    // Each row once, plus per page at most its cursor's row again and the row past its end (9,503 when
    // every page read the period from its start).
    expect(read).toBeLessThanOrEqual(total + 2 * pages.length);
  });

  it("keeps the window the page showed when exported after UTC midnight, and never goes past today (audit O, O9)", async () => {
    await record({ orgId: admin.orgId, at: Date.UTC(2025, 0, 9, 1), costMicros: 1 }); // the first of 15 Jan's 7 days
    await record({ orgId: admin.orgId, at: Date.UTC(2025, 0, 15, 23), costMicros: 2 }); // the page's last day
    const shown = await report(admin, "days=7");
    expect([shown.from, shown.to]).toEqual(["2025-01-09", "2025-01-15"]);

    clock = Date.UTC(2025, 0, 16, 0, 5); // five minutes into the next UTC day
    const pinned = await admin.call("GET", `/usage/export?days=7&to=${shown.to}`);
    expect(pinned.headers.get("content-disposition")).toMatch(/usage-2025-01-09-to-2025-01-15\.csv/);
    expect(
      parseCsv(afterBom(await pinned.arrayBuffer()))
        .slice(1)
        .map((r) => r[9]),
    ).toEqual(["0.000001", "0.000002"]);
    // Without `to`, the window ends today: the 9th is out.
    expect(
      parseCsv(afterBom(await (await admin.call("GET", "/usage/export?days=7")).arrayBuffer()))
        .slice(1)
        .map((r) => r[9]),
    ).toEqual(["0.000002"]);
    // A day past today is today.
    const future = await admin.call("GET", "/usage/export?days=7&to=2025-02-01");
    expect(future.headers.get("content-disposition")).toMatch(/usage-2025-01-10-to-2025-01-16\.csv/);
    expect((await admin.call("GET", "/usage/export?days=7&to=2025-13-01")).status).toBe(400);
  });

  it("is refused to the signed-out", async () => {
    expect((await h.fetch("/usage/export")).status).toBe(401);
  });
});
