import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AuditPage } from "@contract/audit";
import type { ModelHistory, ModelMetrics, SystemModelMetrics } from "@contract/models";
import type { UsageReport } from "@contract/usage";
import type { FakeUpstream } from "../fakes/openai-upstream";
import { startFakeUpstream } from "../fakes/openai-upstream";
import type { Harness, Session } from "./harness";
import { createHarness } from "./harness";

/** Decision 0140: a model deleted and added again under its name starts with no status history or figures. */

const HOUR = 3_600_000;

let fake: FakeUpstream;
let h: Harness;
beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
afterEach(() => h?.close());

const model = () => ({ displayName: "Model one", provider: "vllm", contextSize: 8192, baseUrl: fake.url, upstreamModel: "echo" });

let clock: number;
async function setup() {
  clock = Date.UTC(2026, 2, 1, 12);
  h = await createHarness({}, () => clock);
  return h.signIn("Operator", "operator@example.test"); // the first user ever: system admin, in organization 1
}

async function ok(response: Response) {
  expect(response.status).toBe(200);
  return response.json();
}

const history = async (who: Session) => (await ok(await who.call("GET", "/models/m1/history?days=1"))) as ModelHistory;
const systemFigures = async (who: Session) =>
  ((await ok(await who.call("GET", "/system/models/metrics"))) as SystemModelMetrics).data.find((m) => m.name === "m1")!;

describe("a model added again under a deleted model's name", () => {
  it("has no history from before it was added: not the old model's maintenance, nor the hours no model existed", async () => {
    const operator = await setup();
    await ok(await operator.call("PUT", "/models/m1", { ...model(), status: "maintenance", mode: "add" }));
    clock += HOUR;
    await ok(await operator.call("DELETE", "/models/m1"));
    clock += 20 * HOUR;
    await ok(await operator.call("PUT", "/models/m1", { ...model(), mode: "add" }));
    const added = clock;
    clock += HOUR;

    expect(await history(operator)).toMatchObject({ uptime: null, bands: [] });
    expect(await systemFigures(operator)).toMatchObject({ uptime24h: null, uptime7d: null });

    // Its first status is its own, from the moment it is observed.
    expect(await ok(await operator.call("GET", "/models/status"))).toMatchObject({ m1: "online" });
    const observed = clock;
    clock += HOUR;
    const shown = await history(operator);
    expect(shown.bands).toEqual([{ status: "online", from: observed, to: clock }]);
    expect(shown.bands[0].from).toBeGreaterThan(added);
    expect(shown.uptime).toBe(1);
    expect(await systemFigures(operator)).toMatchObject({ uptime24h: 1, uptime7d: 1 });
  });

  it("is not counted online for the hours between a delete while online and the new model's first status", async () => {
    const operator = await setup();
    await ok(await operator.call("PUT", "/models/m1", { ...model(), mode: "add" }));
    expect(await ok(await operator.call("GET", "/models/status"))).toMatchObject({ m1: "online" });
    clock += HOUR;
    await ok(await operator.call("DELETE", "/models/m1"));
    clock += 20 * HOUR;
    await ok(await operator.call("PUT", "/models/m1", { ...model(), mode: "add" }));
    clock += HOUR;
    // Online again, as the name's last recorded status was: still the new model's first.
    expect(await ok(await operator.call("GET", "/models/status"))).toMatchObject({ m1: "online" });
    const observed = clock;
    clock += HOUR;

    expect((await history(operator)).bands).toEqual([{ status: "online", from: observed, to: clock }]);
  });

  it("keeps nothing a status round begun before the delete recorded after it", async () => {
    const operator = await setup();
    // An upstream whose /models answers only when told: the round is still probing when the model is deleted.
    let arrived!: () => void;
    const probed = new Promise<void>((resolve) => (arrived = resolve));
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const slow = http.createServer((_req, res) => {
      arrived();
      void answered.then(() => res.end(JSON.stringify({ data: [] })));
    });
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/v1`;
      await ok(await operator.call("PUT", "/models/m1", { ...model(), baseUrl, mode: "add" }));
      const round = operator.call("GET", "/models/status");
      await probed;
      await ok(await operator.call("DELETE", "/models/m1"));
      answer();
      expect((await round).status).toBe(200);
    } finally {
      await new Promise((resolve) => slow.close(resolve));
    }
    clock += 20 * HOUR;
    await ok(await operator.call("PUT", "/models/m1", { ...model(), status: "maintenance", mode: "add" }));
    const added = clock;
    clock += HOUR;

    expect((await history(operator)).bands).toEqual([{ status: "maintenance", from: added, to: clock }]);
  });

  it("starts with no reliability figures, and keeps the old model's usage and audit entries", async () => {
    const operator = await setup();
    const acme = await h.admin("Acme");
    await ok(await operator.call("PUT", "/models/m1", { ...model(), mode: "add" }));
    const chat = await acme.call("POST", "/chat/completions", { model: "m1", messages: [{ role: "user", content: "Say hello" }], stream: false });
    expect(chat.status).toBe(200);
    await chat.arrayBuffer();
    const figures = async () => ((await ok(await acme.call("GET", "/models/metrics"))) as { data: ModelMetrics[] }).data.find((m) => m.name === "m1")!;
    // Deleted at once: its counters this process had not written yet go with it too.
    await ok(await operator.call("DELETE", "/models/m1"));
    clock += 5 * 60_000;
    await ok(await operator.call("PUT", "/models/m1", { ...model(), mode: "add" }));

    expect((await figures()).lastHour).toMatchObject({ requests: 0, errors: 0 });
    expect((await systemFigures(operator)).lastHour.requests).toBe(0);
    // What the organization used and was charged is its record, whatever became of the model.
    const usage = (await ok(await acme.call("GET", "/usage?days=7"))) as UsageReport;
    expect(usage.totals.requests).toBe(1);
    expect(usage.models.map((m) => [m.model, m.requests])).toEqual([["m1", 1]]);
    const audit = (await ok(await operator.call("GET", "/audit"))) as AuditPage;
    expect(audit.entries.filter((e) => e.target === "m1").map((e) => e.action)).toEqual(["model.created", "model.deleted", "model.created"]);
  });
});
