import pg from "pg";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ModelConfig, ModelHistory, ModelMetrics, SystemModelMetrics } from "@contract/models";
import type { Deps } from "../../platform/context";
import type { DB } from "../../platform/db";
import { migrate, openDatabase } from "../../platform/db";
import { beginRequest, flushMetrics, stopMetrics } from "../../platform/models/metrics";
import { p50Of } from "../../platform/models/reliability";
import { statusBands, uptimeOf } from "../../platform/models/history";
import { clearStatusCache, modelStatuses, saveModel } from "../../platform/models/service";
import { startStatusWatcher } from "../../platform/models/status-watcher";
import type { FakeUpstream } from "../fakes/openai-upstream";
import { startFakeUpstream } from "../fakes/openai-upstream";
import type { Harness, Session } from "./harness";
import { createHarness } from "./harness";

let fake: FakeUpstream;
let h: Harness;
beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
afterEach(() => h?.close());

const UPSTREAMS = ["echo", "slow-first", "warming", "rate-limited", "hang", "broken"];
const modelInput = (upstream: string) => ({
  name: `fake-${upstream}`,
  displayName: `Fake ${upstream}`,
  provider: "vllm",
  contextSize: 8192,
  baseUrl: fake.url,
  upstreamModel: upstream,
});

async function setup(now?: () => number) {
  h = await createHarness({}, now);
  const operator = await h.signIn("Operator", "operator@example.test"); // the first user ever: system admin
  for (const upstream of UPSTREAMS) await saveModel(h.deps, modelInput(upstream));
  const acme = await h.admin("Acme");
  const other = await h.admin("Other");
  return { operator, acme, other };
}

const ask = (model: string) => ({ model, messages: [{ role: "user", content: "Say hello" }], stream: true });

async function chat(who: Session, model: string) {
  const response = await h.fetch("/chat/completions", { method: "POST", cookie: who.cookie, json: ask(model) });
  await response.arrayBuffer().catch(() => null);
  return response.status;
}

async function metrics(who: Session): Promise<Record<string, ModelMetrics>> {
  const response = await who.call("GET", "/models/metrics");
  expect(response.status).toBe(200);
  const { data } = (await response.json()) as { data: ModelMetrics[] };
  return Object.fromEntries(data.map((m) => [m.name, m]));
}

describe("minute aggregates from real traffic", () => {
  it("counts successes, 503, 429, upstream failures and client aborts per organization, with p50 and tokens/s", async () => {
    const { acme, other } = await setup();
    expect(await chat(acme, "fake-echo")).toBe(200);
    expect(await chat(acme, "fake-echo")).toBe(200);
    expect(await chat(acme, "fake-slow-first")).toBe(200);
    expect(await chat(acme, "fake-warming")).toBe(503);
    expect(await chat(acme, "fake-rate-limited")).toBe(429);
    expect(await chat(acme, "fake-broken")).toBe(200); // the stream breaks after its first chunk

    const controller = new AbortController();
    const response = await h.fetch("/chat/completions", { method: "POST", cookie: acme.cookie, json: ask("fake-hang"), signal: controller.signal });
    await response.body!.getReader().read();
    const closed = fake.nextClose();
    controller.abort();
    await closed;
    await new Promise((r) => setTimeout(r, 50));

    const mine = await metrics(acme);
    expect(mine["fake-echo"].lastHour).toMatchObject({ requests: 2, errors: 0, errorRate: 0 });
    expect(mine["fake-echo"].lastHour.p50TtftMs).toBeLessThan(100);
    expect(mine["fake-echo"].lastHour.tokensPerSecond).toBeGreaterThan(0);
    const slow = mine["fake-slow-first"].lastHour;
    expect(slow.requests).toBe(1);
    // One 600 ms first token: its histogram bucket is (500, 750] ms.
    expect(slow.p50TtftMs).toBeGreaterThan(500);
    expect(slow.p50TtftMs).toBeLessThanOrEqual(750);
    expect(mine["fake-warming"].lastHour).toMatchObject({ requests: 1, errors: 1, errorRate: 1, p50TtftMs: null });
    expect(mine["fake-rate-limited"].lastHour).toMatchObject({ requests: 1, errors: 1, errorRate: 1 });
    expect(mine["fake-broken"].lastHour).toMatchObject({ requests: 1, errors: 1 });
    expect(mine["fake-hang"].lastHour).toMatchObject({ requests: 1, errors: 0, aborted: 1, errorRate: 0 });

    // Another organization sees none of it, and nothing platform-wide unless the operator publishes it.
    const theirs = await metrics(other);
    expect(theirs["fake-echo"].lastHour.requests).toBe(0);
    expect(theirs["fake-echo"].platformLastHour).toBeNull();
    await saveModel(h.deps, { ...modelInput("echo"), publishMetrics: true });
    expect((await metrics(other))["fake-echo"].platformLastHour).toMatchObject({ requests: 2 });

    // Written as one row per model, organization and minute (two at most if the test crossed a minute).
    const rows = await h.deps.db.selectFrom("model_minute_stats").selectAll().where("model", "=", "fake-echo").execute();
    expect(rows.length).toBeLessThanOrEqual(2);
    expect(rows.reduce((sum, r) => sum + Number(r.requests), 0)).toBe(2);
  });

  it("measures tokens a second on streamed answers only: whole (JSON) answers leave the figure as it was", async () => {
    const { acme } = await setup();
    expect(await chat(acme, "fake-echo")).toBe(200);
    const streamed = (await metrics(acme))["fake-echo"].lastHour.tokensPerSecond;
    expect(streamed).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) {
      const response = await h.fetch("/chat/completions", { method: "POST", cookie: acme.cookie, json: { ...ask("fake-echo"), stream: false } });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    const after = (await metrics(acme))["fake-echo"].lastHour;
    expect(after.requests).toBe(4);
    expect(after.tokensPerSecond).toBe(streamed);
  });

  it("reads p50 from summed histogram buckets", () => {
    expect(p50Of([0, 0, 0])).toBeNull();
    // Bounds 25, 50, 100 …: 1 in (0,25], 3 in (25,50] → the median is inside the second bucket.
    const p50 = p50Of([1, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])!;
    expect(p50).toBeGreaterThan(25);
    expect(p50).toBeLessThanOrEqual(50);
    expect(p50Of([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5])).toBe(10000);
  });

  it("is for members, and the system figures and alerts for the system organization only", async () => {
    const { operator, acme } = await setup();
    expect((await h.fetch("/models/metrics")).status).toBe(401);
    expect((await acme.call("GET", "/system/models/metrics")).status).toBe(403);
    expect((await acme.call("GET", "/models/nope/history")).status).toBe(404);
    expect((await acme.call("GET", "/models/fake-echo/history?days=999")).status).toBe(400);

    await saveModel(h.deps, { ...modelInput("warming"), alertErrorRatePct: 10 });
    await saveModel(h.deps, { ...modelInput("slow-first"), alertTtftMs: 300 });
    await saveModel(h.deps, { ...modelInput("echo"), alertErrorRatePct: 10, alertTtftMs: 5000 });
    await chat(acme, "fake-warming");
    await chat(acme, "fake-slow-first");
    await chat(acme, "fake-echo");
    const response = await operator.call("GET", "/system/models/metrics");
    expect(response.status).toBe(200);
    const body = (await response.json()) as SystemModelMetrics;
    expect(body.alerts.map((a) => [a.model, a.kind]).sort()).toEqual([
      ["fake-slow-first", "latency"],
      ["fake-warming", "errorRate"],
    ]);
    expect(body.alerts.find((a) => a.kind === "errorRate")).toMatchObject({ value: 100, threshold: 10 });
    expect(body.data.find((m) => m.name === "fake-echo")!.last15m.requests).toBe(1);
  });
});

describe("status history and uptime", () => {
  it("keeps probe results only when they change, every override, and computes uptime from the intervals", async () => {
    let clock = Date.UTC(2026, 0, 10);
    const { acme } = await setup(() => clock);
    const HOUR = 3_600_000;
    const model = modelInput("echo");

    fake.modelsStatus = 200;
    await modelStatuses(h.deps); // online at t0: nothing known before it, so it doesn't count against uptime
    clock += 35_000;
    await modelStatuses(h.deps); // still online: not recorded again
    clock += 6 * HOUR - 35_000;
    await saveModel(h.deps, { ...model, status: "maintenance" }); // t0+6h: maintenance
    clock += 2 * HOUR;
    await saveModel(h.deps, model); // the override cleared: the next probe says online again
    fake.modelsStatus = 503;
    await modelStatuses(h.deps); // t0+8h: starting
    fake.modelsStatus = 200;
    clock += 2 * HOUR;
    await modelStatuses(h.deps); // t0+10h: online
    clock += 2 * HOUR; // now t0+12h

    const rows = await h.deps.db.selectFrom("model_status_history").select(["status", "source"]).where("model", "=", "fake-echo").orderBy("id").execute();
    expect(rows).toEqual([
      { status: "online", source: "probe" },
      { status: "maintenance", source: "override" },
      { status: "starting", source: "probe" },
      { status: "online", source: "probe" },
    ]);

    // Online 6h + 2h of 12 known hours.
    expect((await metrics(acme))["fake-echo"].uptime24h).toBeCloseTo(8 / 12, 5);
    const history = (await (await acme.call("GET", "/models/fake-echo/history?days=7")).json()) as ModelHistory;
    expect(history.uptime).toBeCloseTo(8 / 12, 5);
    expect(history.bands.map((b) => [b.status, (b.to - b.from) / HOUR])).toEqual([
      ["online", 6],
      ["maintenance", 2],
      ["starting", 2],
      ["online", 2],
    ]);
  });

  it("reads every model's 24-hour and 7-day uptime in one go, the same as each model's bands would say", async () => {
    const clock = Date.UTC(2026, 0, 20);
    const { acme } = await setup(() => clock);
    const HOUR = 3_600_000;
    const DAY = 24 * HOUR;
    const changes: [string, number][] = [
      ["offline", clock - 9 * DAY], // in force when the 7 days begin
      ["online", clock - 5 * DAY],
      ["maintenance", clock - 30 * HOUR], // in force when the 24 hours begin
      ["online", clock - 20 * HOUR],
      ["starting", clock - 2 * HOUR],
    ];
    await h.deps.db
      .insertInto("model_status_history")
      .values(changes.map(([status, at]) => ({ model: "fake-echo", status, source: "probe", at })))
      .execute();
    const expected = async (days: number) => uptimeOf(await statusBands(h.deps, "fake-echo", clock - days * DAY, clock));
    const shown = (await metrics(acme))["fake-echo"];
    expect(shown.uptime24h).toBeCloseTo(18 / 24, 9);
    expect(shown.uptime24h).toBe(await expected(1));
    expect(shown.uptime7d).toBe(await expected(7));
    expect(shown.uptime7d).toBeCloseTo((5 * DAY - 30 * HOUR + 18 * HOUR) / (7 * DAY), 9);
    // A model with no history has none to show.
    expect((await metrics(acme))["fake-broken"]).toMatchObject({ uptime24h: null, uptime7d: null });
  });

  it("returns hourly latency and error figures for the organization", async () => {
    const { acme } = await setup();
    await chat(acme, "fake-echo");
    await chat(acme, "fake-echo");
    const history = (await (await acme.call("GET", "/models/fake-echo/history")).json()) as ModelHistory;
    expect(history.days).toBe(7);
    expect(history.platformHours).toBeNull();
    expect(history.hours.reduce((sum, hr) => sum + hr.requests, 0)).toBe(2);
    expect(history.hours.every((hr) => hr.hour % 3_600_000 === 0)).toBe(true);
  });
});

/** Two connections to one database, as two processes have: a SQLite file, or the CI's PostgreSQL. */
async function sharedDatabase(): Promise<{ a: DB; b: DB; close: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const file = path.join(os.tmpdir(), `model-metrics-${process.pid}-${Date.now()}.db`);
    const a = openDatabase({ path: file });
    const b = openDatabase({ path: file });
    return { a, b, close: async () => void (await Promise.all([a.destroy(), b.destroy()])) };
  }
  const name = `t_${process.pid}_${Date.now()}_metrics`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  await admin(`create database ${name}`);
  const scoped = new URL(url);
  scoped.pathname = `/${name}`;
  const a = openDatabase({ url: scoped.toString() });
  const b = openDatabase({ url: scoped.toString() });
  return { a, b, close: async () => (await Promise.all([a.destroy(), b.destroy()]), await admin(`drop database if exists ${name} with (force)`)) };
}

describe("several processes over one database", () => {
  it("add their counters up in the same minute row", async () => {
    const shared = await sharedDatabase();
    const config = { sessionSecret: "test-secret-test-secret-test-secret", orgSignupEnabled: true, systemAdmins: [], oauth: {}, allowDevSignin: false };
    let clock = Date.UTC(2026, 0, 10, 12, 0, 5);
    const a: Deps = { db: shared.a, config, now: () => clock };
    const b: Deps = { db: shared.b, config, now: () => clock };
    try {
      await migrate(a.db);
      const one = beginRequest(a, "m", 1);
      clock += 200;
      one.firstToken();
      clock += 1000;
      one.end("completed", 50);
      for (let i = 0; i < 3; i++) beginRequest(b, "m", 1).fail(503);
      const two = beginRequest(b, "m", 1);
      clock += 400;
      two.firstToken();
      clock += 500;
      two.end("completed", 25);
      await Promise.all([flushMetrics(a.db), flushMetrics(b.db)]);
      // Again from both: the second flush adds to the first row instead of replacing it.
      beginRequest(a, "m", 1).fail(429);
      await stopMetrics(a.db);
      await stopMetrics(b.db);

      const rows = await a.db.selectFrom("model_minute_stats").selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ model: "m", org_id: 1, minute: Date.UTC(2026, 0, 10, 12, 0, 0) });
      const row = Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, typeof v === "string" && k !== "model" ? Number(v) : v]));
      expect(row).toMatchObject({
        requests: 6,
        successes: 2,
        unavailable: 3,
        rate_limited: 1,
        output_tokens: 75,
        generation_ms: 1500,
        ttft_count: 2,
        ttft_sum_ms: 600,
      });
      // 200 ms → bucket (100, 200], 400 ms → bucket (350, 500].
      expect(row.ttft_b3).toBe(1);
      expect(row.ttft_b5).toBe(1);
    } finally {
      await shared.close();
    }
  });
});

describe("the server's status watcher", () => {
  it("records a model going offline and back with nobody polling /models/status", async () => {
    await setup();
    const history = async () =>
      (await h.deps.db.selectFrom("model_status_history").select(["status"]).where("model", "=", "fake-echo").orderBy("id").execute()).map((r) => r.status);
    fake.modelsStatus = 200;
    const watcher = startStatusWatcher(h.deps, 50);
    try {
      await expect.poll(history).toEqual(["online"]);
      fake.modelsStatus = 500;
      clearStatusCache(h.deps.db);
      await expect.poll(history).toEqual(["online", "offline"]);
    } finally {
      await watcher.close();
      fake.modelsStatus = 200;
    }
  });

  it("waits, on close, for the round in progress: its history is written before the database may close", async () => {
    await setup();
    const history = async () => (await h.deps.db.selectFrom("model_status_history").select(["status"]).where("model", "=", "fake-echo").execute()).length;
    fake.modelsDelayMs = 300;
    try {
      const watcher = startStatusWatcher(h.deps, 60_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await history()).toBe(0);
      await watcher.close();
      expect(await history()).toBe(1);
    } finally {
      fake.modelsDelayMs = 0;
    }
  });
});

describe("retention", () => {
  it("keeps 30 days of minute rows (the longest history shown) and prunes what is older as new minutes are written", async () => {
    const db = openDatabase({ path: ":memory:" });
    const config = { sessionSecret: "test-secret-test-secret-test-secret", orgSignupEnabled: true, systemAdmins: [], oauth: {}, allowDevSignin: false };
    let clock = Date.UTC(2026, 0, 1, 12);
    const deps: Deps = { db, config, now: () => clock };
    try {
      await migrate(db);
      const at = async (when: number) => {
        clock = when;
        beginRequest(deps, "m", 1).fail(503);
        await flushMetrics(db);
      };
      const day = 24 * 3_600_000;
      const start = clock;
      await at(start);
      await at(start + 2 * day);
      await at(start + 32 * day);
      const minutes = async () => (await db.selectFrom("model_minute_stats").select("minute").orderBy("minute").execute()).map((r) => Number(r.minute));
      // The first minute is past 31 days; the one 30 days before the newest is kept.
      expect(await minutes()).toEqual([start + 2 * day, start + 32 * day]);
    } finally {
      await stopMetrics(db);
      await db.destroy();
    }
  });
});

describe("the operator's reliability settings", () => {
  const put = (who: Session, name: string, body: Record<string, unknown>) =>
    who.call("PUT", `/models/${name}`, { ...modelInput("echo"), name: undefined, ...body });

  it("validates the alert thresholds by field, and the model editor's record carries them back", async () => {
    const { operator, acme } = await setup();
    for (const [body, field] of [
      [{ alertErrorRatePct: 101 }, "alertErrorRatePct"],
      [{ alertErrorRatePct: -1 }, "alertErrorRatePct"],
      [{ alertErrorRatePct: 12.5 }, "alertErrorRatePct"],
      [{ alertErrorRatePct: "ten" }, "alertErrorRatePct"],
      [{ alertTtftMs: 0 }, "alertTtftMs"],
      [{ alertTtftMs: 600_001 }, "alertTtftMs"],
      [{ alertTtftMs: 1.5 }, "alertTtftMs"],
    ] as const) {
      const response = await put(operator, "fake-echo", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await response.json()) as { fields: Record<string, string> }).fields).toHaveProperty(field);
    }
    // Only the system organization's admins set them.
    expect((await put(acme, "fake-echo", { alertErrorRatePct: 5 })).status).toBe(403);

    expect((await put(operator, "fake-echo", { alertErrorRatePct: 5, alertTtftMs: 1500, publishMetrics: true })).status).toBe(200);
    const configs = (await (await operator.call("GET", "/system/models")).json()) as { data: ModelConfig[] };
    expect(configs.data.find((m) => m.name === "fake-echo")).toMatchObject({ alertErrorRatePct: 5, alertTtftMs: 1500, publishMetrics: true });
    // Saved again without them (null clears a threshold): none are left.
    expect((await put(operator, "fake-echo", { alertErrorRatePct: null, alertTtftMs: null, publishMetrics: false })).status).toBe(200);
    const cleared = (await (await operator.call("GET", "/system/models")).json()) as { data: ModelConfig[] };
    const echo = cleared.data.find((m) => m.name === "fake-echo")!;
    expect([echo.alertErrorRatePct, echo.alertTtftMs, echo.publishMetrics ?? false]).toEqual([undefined, undefined, false]);
  });

  it("keeps each organization's figures to itself, and shows platform figures only where the operator publishes them", async () => {
    const { operator, acme, other } = await setup();
    await chat(acme, "fake-echo");
    await chat(acme, "fake-warming");
    await chat(other, "fake-echo");

    const history = async (who: Session, name: string) => (await (await who.call("GET", `/models/${name}/history`)).json()) as ModelHistory;
    const count = (hours: { requests: number }[] | null) => hours?.reduce((sum, hr) => sum + hr.requests, 0) ?? null;
    // Each organization sees its own requests only, in the list and on the model's history.
    expect((await metrics(acme))["fake-echo"].lastHour.requests).toBe(1);
    expect((await metrics(acme))["fake-warming"].lastHour).toMatchObject({ requests: 1, errors: 1 });
    expect((await metrics(other))["fake-warming"].lastHour).toMatchObject({ requests: 0, errors: 0, errorRate: null });
    expect(count((await history(other, "fake-warming")).hours)).toBe(0);
    expect(count((await history(acme, "fake-warming")).hours)).toBe(1);
    // The operator's own organization has no traffic; the system view has everyone's.
    expect((await metrics(operator))["fake-echo"].lastHour.requests).toBe(0);
    const system = (await (await operator.call("GET", "/system/models/metrics")).json()) as SystemModelMetrics;
    expect(system.data.find((m) => m.name === "fake-echo")!.lastHour.requests).toBe(2);

    // Unpublished: no platform figures anywhere.
    expect((await metrics(other))["fake-echo"].platformLastHour).toBeNull();
    expect((await history(other, "fake-echo")).platformHours).toBeNull();
    // Published for one model: every organization sees that model's platform figures, and only that model's.
    expect((await put(operator, "fake-echo", { publishMetrics: true })).status).toBe(200);
    const published = await metrics(other);
    expect(published["fake-echo"].platformLastHour).toMatchObject({ requests: 2 });
    expect(published["fake-echo"].lastHour.requests).toBe(1);
    expect(published["fake-warming"].platformLastHour).toBeNull();
    expect(count((await history(other, "fake-echo")).platformHours)).toBe(2);
    // Withdrawn: gone again.
    expect((await put(operator, "fake-echo", { publishMetrics: false })).status).toBe(200);
    expect((await metrics(other))["fake-echo"].platformLastHour).toBeNull();
  });
});
