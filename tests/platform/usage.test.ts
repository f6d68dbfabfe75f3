import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { UsageReport } from "@contract/usage";
import type { Harness, Session } from "./harness";
import { createHarness } from "./harness";

const DAY = 86_400_000;
let clock: number;
let h: Harness;
let admin: Session & { orgId: number };
let member: Session;
let outsider: Session & { orgId: number };
let receipts = 0;

beforeEach(async () => {
  clock = Date.UTC(2025, 0, 15, 12, 0, 0);
  h = await createHarness({}, () => clock);
  ({ admin, member, outsider } = await h.team());
});
afterEach(() => h.close());

interface Row {
  orgId: number;
  at: number;
  model?: string;
  prompt?: number;
  completion?: number;
  reasoning?: number;
  costMicros?: number;
  tokenId?: number | null;
}

async function record(row: Row) {
  receipts += 1;
  await h.deps.db
    .insertInto("chat_usage")
    .values({
      receipt_id: `rcpt_${receipts}`,
      org_id: row.orgId,
      user_id: row.tokenId ? null : admin.userId,
      token_id: row.tokenId ?? null,
      model: row.model ?? "builtin",
      rate_card_id: null,
      prompt_tokens: row.prompt ?? 10,
      completion_tokens: row.completion ?? 20,
      reasoning_tokens: row.reasoning ?? 5,
      cost_micros: row.costMicros ?? 0,
      estimated: 0,
      outcome: "completed",
      created_at: row.at,
    })
    .execute();
}

async function report(session: Session, days?: number | string): Promise<UsageReport> {
  const response = await session.call("GET", days === undefined ? "/usage" : `/usage?days=${days}`);
  expect(response.status).toBe(200);
  return response.json();
}

describe("GET /usage", () => {
  it("sums requests, tokens and cost (in dollars) over the period", async () => {
    await record({ orgId: admin.orgId, at: clock - 1000, prompt: 100, completion: 50, reasoning: 10, costMicros: 1_250_000 });
    await record({ orgId: admin.orgId, at: clock - 2 * DAY, prompt: 7, completion: 3, reasoning: 0, costMicros: 10_000 });
    const r = await report(admin, 7);
    expect(r.days).toBe(7);
    expect(r.totals).toEqual({ requests: 2, promptTokens: 107, completionTokens: 53, reasoningTokens: 10, cost: 1.26 });
  });

  it("answers one zero-filled entry per UTC day, oldest first, today last", async () => {
    await record({ orgId: admin.orgId, at: Date.UTC(2025, 0, 15, 0, 0, 1), costMicros: 500_000 });
    await record({ orgId: admin.orgId, at: Date.UTC(2025, 0, 14, 23, 59, 59), costMicros: 250_000 });
    await record({ orgId: admin.orgId, at: Date.UTC(2025, 0, 12, 8) });
    const r = await report(admin, 7);
    expect(r.from).toBe("2025-01-09");
    expect(r.to).toBe("2025-01-15");
    expect(r.daily.map((d) => d.date)).toEqual(["2025-01-09", "2025-01-10", "2025-01-11", "2025-01-12", "2025-01-13", "2025-01-14", "2025-01-15"]);
    expect(r.daily.map((d) => d.requests)).toEqual([0, 0, 0, 1, 0, 1, 1]);
    expect(r.daily.map((d) => d.cost)).toEqual([0, 0, 0, 0, 0, 0.25, 0.5]);
    expect(r.daily[0]).toEqual({ date: "2025-01-09", requests: 0, promptTokens: 0, completionTokens: 0, reasoningTokens: 0, cost: 0 });
    expect((await report(admin, 30)).daily).toHaveLength(30);
    expect((await report(admin, 90)).daily).toHaveLength(90);
  });

  it("leaves out usage from before the period's first UTC day", async () => {
    await record({ orgId: admin.orgId, at: Date.UTC(2025, 0, 9, 0, 0, 0) });
    await record({ orgId: admin.orgId, at: Date.UTC(2025, 0, 8, 23, 59, 59) });
    expect((await report(admin, 7)).totals.requests).toBe(1);
    expect((await report(admin, 30)).totals.requests).toBe(2);
  });

  it("defaults to 30 days", async () => {
    const r = await report(admin);
    expect(r.days).toBe(30);
    expect(r.daily).toHaveLength(30);
  });

  it("breaks usage down per model, most expensive first", async () => {
    await record({ orgId: admin.orgId, at: clock, model: "builtin", prompt: 1, completion: 2, reasoning: 1 });
    await record({ orgId: admin.orgId, at: clock, model: "builtin", prompt: 1, completion: 2, reasoning: 1 });
    await record({ orgId: admin.orgId, at: clock - DAY, model: "llama", prompt: 1000, completion: 500, reasoning: 0, costMicros: 2_000_000 });
    const r = await report(admin, 7);
    expect(r.models).toEqual([
      { model: "llama", requests: 1, promptTokens: 1000, completionTokens: 500, reasoningTokens: 0, cost: 2 },
      { model: "builtin", requests: 2, promptTokens: 2, completionTokens: 4, reasoningTokens: 2, cost: 0 },
    ]);
  });

  it("splits the console's chat from each API token", async () => {
    const [primary] = await (await admin.call("GET", "/tokens")).json();
    const token = await h.deps.db.selectFrom("api_tokens").select("id").where("public_id", "=", primary.publicId).executeTakeFirstOrThrow();
    await record({ orgId: admin.orgId, at: clock });
    await record({ orgId: admin.orgId, at: clock, tokenId: token.id, costMicros: 30_000 });
    await record({ orgId: admin.orgId, at: clock, tokenId: token.id, costMicros: 30_000 });
    const r = await report(admin, 7);
    expect(r.sources).toEqual([
      { kind: "console", token: null, requests: 1, promptTokens: 10, completionTokens: 20, reasoningTokens: 5, cost: 0 },
      { kind: "api", token: primary.publicId, requests: 2, promptTokens: 20, completionTokens: 40, reasoningTokens: 10, cost: 0.06 },
    ]);
  });

  it("counts a chat the console really made with the built-in model", async () => {
    const chat = await admin.call("POST", "/chat/completions", { model: "builtin", messages: [{ role: "user", content: "Say hello" }], stream: true });
    expect(chat.status).toBe(200);
    await chat.arrayBuffer();
    let r = await report(admin, 7);
    for (let i = 0; i < 50 && r.totals.requests === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      r = await report(admin, 7);
    }
    expect(r.totals.requests).toBe(1);
    expect(r.totals.promptTokens).toBeGreaterThan(0);
    expect(r.models.map((m) => m.model)).toEqual(["builtin"]);
    expect(r.daily.at(-1)?.requests).toBe(1);
  });

  it("is empty, with every day zero, for an organization that never chatted", async () => {
    const r = await report(admin, 7);
    expect(r.totals).toEqual({ requests: 0, promptTokens: 0, completionTokens: 0, reasoningTokens: 0, cost: 0 });
    expect(r.daily.every((d) => d.requests === 0)).toBe(true);
    expect(r.models).toEqual([]);
    expect(r.sources).toEqual([{ kind: "console", token: null, requests: 0, promptTokens: 0, completionTokens: 0, reasoningTokens: 0, cost: 0 }]);
  });
});

describe("an organization with more members at work than a statement takes ids", () => {
  it("reports on 32,767 members who chatted in the period (SQLite takes at most 32,766 bound values at once)", async () => {
    const people = 32_767;
    for (let start = 0; start < people; start += 1000) {
      const rows = Array.from({ length: Math.min(1000, people - start) }, (_, k) => ({
        receipt_id: `many_${start + k}`,
        org_id: admin.orgId,
        user_id: 1_000_000 + start + k,
        token_id: null,
        model: "builtin",
        rate_card_id: null,
        prompt_tokens: 1,
        completion_tokens: 1,
        reasoning_tokens: 0,
        cost_micros: 0,
        estimated: 0,
        outcome: "completed" as const,
        created_at: clock - 60_000,
      }));
      await h.deps.db.insertInto("chat_usage").values(rows).execute();
    }
    const shown = await report(admin, 7);
    expect(shown.members).toHaveLength(people);
  }, 120_000);
});

describe("who sees what", () => {
  it("shows a member the whole organization's usage, as the admin sees it", async () => {
    await record({ orgId: admin.orgId, at: clock, costMicros: 10_000 });
    expect(await report(member, 7)).toEqual(await report(admin, 7));
    expect((await report(member, 7)).totals.requests).toBe(1);
  });

  it("never shows another organization's usage", async () => {
    await record({ orgId: admin.orgId, at: clock, costMicros: 10_000 });
    await record({ orgId: outsider.orgId, at: clock, model: "secret-model", costMicros: 990_000 });
    const mine = await report(admin, 7);
    expect(mine.totals.requests).toBe(1);
    expect(mine.models.map((m) => m.model)).toEqual(["builtin"]);
    const theirs = await report(outsider, 7);
    expect(theirs.totals).toMatchObject({ requests: 1, cost: 0.99 });
    expect(theirs.models.map((m) => m.model)).toEqual(["secret-model"]);
  });

  it("follows the active organization when a user switches", async () => {
    await record({ orgId: admin.orgId, at: clock });
    await h.join(outsider, member);
    expect((await member.call("POST", "/auth/switch", { organizationId: outsider.orgId })).status).toBe(200);
    expect((await report(member, 7)).totals.requests).toBe(0);
    expect((await member.call("POST", "/auth/switch", { organizationId: admin.orgId })).status).toBe(200);
    expect((await report(member, 7)).totals.requests).toBe(1);
  });

  it("refuses the signed-out (401) and users without an organization (403)", async () => {
    const signedOut = await h.fetch("/usage?days=7");
    expect(signedOut.status).toBe(401);
    expect(await signedOut.json()).toEqual({ error: "Not signed in" });
    const loner = await h.signIn("Lone Ranger");
    const response = await loner.call("GET", "/usage?days=7");
    expect(response.status).toBe(403);
    expect((await response.json()).error).toBeTruthy();
  });
});

describe("bad input", () => {
  it.each(["1", "0", "-7", "7.0", "abc", "", "365", "07"])("answers 400 {error} for days=%s", async (days) => {
    const response = await admin.call("GET", `/usage?days=${days}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "days: must be 7, 30 or 90" });
  });
});
