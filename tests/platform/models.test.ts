import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MODEL_NAME_DOT_SEGMENT, MODEL_NAME_EMPTY_SEGMENT, modelNameParamSchema } from "@contract/models";
import { applyModelsFile, clearStatusCache, PROBE_TIMEOUT_MS, saveModel, STATUS_CACHE_MS } from "../../platform/models/service";
import type { FakeUpstream } from "../fakes/openai-upstream";
import { startFakeUpstream } from "../fakes/openai-upstream";
import type { Harness } from "./harness";
import { createHarness } from "./harness";

let fake: FakeUpstream;
let h: Harness;
let clock = Date.now();

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
afterEach(async () => {
  fake.modelsStatus = 200;
  await h?.close();
});

async function fresh() {
  h = await createHarness({}, () => clock);
  return h;
}

const upstreamModel = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  displayName: `Model ${name}`,
  provider: "vllm",
  contextSize: 131072,
  baseUrl: fake.url,
  apiKey: "sk-upstream-secret",
  upstreamModel: "echo",
  rateCard: { id: `rc-${name}`, inputPerMillion: 0.5, outputPerMillion: 1.5 },
  ...extra,
});

describe("GET /models", () => {
  it("lists the built-in development model on a fresh install", async () => {
    const admin = await (await fresh()).admin();
    const response = await admin.call("GET", "/models");
    expect(response.status).toBe(200);
    const { data } = await response.json();
    expect(data).toEqual([{ name: "builtin", displayName: "Built-in development model", provider: "builtin", contextSize: 8192, rateCard: null }]);
  });

  it("never sends the upstream's address or key", async () => {
    const admin = await (await fresh()).admin();
    await saveModel(h.deps, upstreamModel("secretive"));
    const text = await (await admin.call("GET", "/models")).text();
    expect(text).toContain("secretive");
    expect(text).not.toContain("sk-upstream-secret");
    expect(text).not.toContain(fake.url);
  });

  it("is for signed-in members of an organization", async () => {
    await fresh();
    expect((await h.fetch("/models")).status).toBe(401);
    await h.signIn(); // the first user ever joins the system organization
    const loner = await h.signIn();
    expect((await loner.call("GET", "/models")).status).toBe(403);
  });
});

describe("GET /models/status", () => {
  it("reports the override, else what the upstream's /models answers", async () => {
    const admin = await (await fresh()).admin();
    await saveModel(h.deps, upstreamModel("up"));
    await saveModel(h.deps, upstreamModel("resting", { status: "standby" }));
    await saveModel(h.deps, upstreamModel("fixing", { status: "maintenance" }));
    await saveModel(h.deps, upstreamModel("gone", { baseUrl: "http://127.0.0.1:9/v1" }));
    const map = await (await admin.call("GET", "/models/status")).json();
    expect(map).toEqual({ builtin: "online", up: "online", resting: "standby", fixing: "maintenance", gone: "offline" });
  });

  it("reports starting while the upstream answers 503, and caches a probe round for 30 s", async () => {
    const admin = await (await fresh()).admin();
    await saveModel(h.deps, upstreamModel("loading"));
    fake.modelsStatus = 503;
    expect((await (await admin.call("GET", "/models/status")).json()).loading).toBe("starting");
    fake.modelsStatus = 200;
    clock += STATUS_CACHE_MS - 1;
    expect((await (await admin.call("GET", "/models/status")).json()).loading).toBe("starting");
    clock += 2;
    expect((await (await admin.call("GET", "/models/status")).json()).loading).toBe("online");
  });

  it("reports a busy upstream (429 on /models) online, and probes each upstream and key once a round", async () => {
    const probes: (string | undefined)[] = [];
    const busy = http.createServer((req, res) => {
      probes.push(req.headers.authorization);
      res.writeHead(429, { "content-type": "application/json", "retry-after": "1" }).end('{"error":{"message":"Rate limit reached for requests"}}');
    });
    await new Promise<void>((r) => busy.listen(0, "127.0.0.1", r));
    try {
      const admin = await (await fresh()).admin();
      const url = `http://127.0.0.1:${(busy.address() as AddressInfo).port}/v1`;
      for (const name of ["gpt-a", "gpt-b", "gpt-c"]) await saveModel(h.deps, upstreamModel(name, { baseUrl: url, apiKey: "sk-same", upstreamModel: name }));
      await saveModel(h.deps, upstreamModel("gpt-other-key", { baseUrl: url, apiKey: "sk-other" }));
      clearStatusCache(h.deps.db);
      const map = await (await admin.call("GET", "/models/status")).json();
      expect(map).toMatchObject({ "gpt-a": "online", "gpt-b": "online", "gpt-c": "online", "gpt-other-key": "online" });
      expect(probes.sort()).toEqual(["Bearer sk-other", "Bearer sk-same"]);
    } finally {
      busy.closeAllConnections();
      busy.close();
    }
  });

  it("probes concurrently, so hanging upstreams cost one timeout together and show offline", async () => {
    const silent = http.createServer(() => {}); // accepts, never answers
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const port = (silent.address() as AddressInfo).port;
    try {
      const admin = await (await fresh()).admin();
      await saveModel(h.deps, upstreamModel("hung-1", { baseUrl: `http://127.0.0.1:${port}/v1` }));
      await saveModel(h.deps, upstreamModel("hung-2", { baseUrl: `http://127.0.0.1:${port}/v1` }));
      await saveModel(h.deps, upstreamModel("fine"));
      clearStatusCache(h.deps.db);
      const started = performance.now();
      const map = await (await admin.call("GET", "/models/status")).json();
      const elapsed = performance.now() - started;
      expect(map).toMatchObject({ "hung-1": "offline", "hung-2": "offline", fine: "online" });
      // Two probes one after the other would take at least two timeouts.
      expect(elapsed).toBeLessThan(2 * PROBE_TIMEOUT_MS);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});

describe("the registry", () => {
  it("is seeded from MODELS_FILE, upserting by name", async () => {
    await fresh();
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "models-")), "models.json");
    fs.writeFileSync(file, JSON.stringify([upstreamModel("qwen"), upstreamModel("llama", { provider: "ollama", rateCard: null })]));
    expect((await applyModelsFile(h.deps.db, file)).entries).toBe(2);
    fs.writeFileSync(file, JSON.stringify({ models: [upstreamModel("qwen", { displayName: "Qwen renamed" })] }));
    await applyModelsFile(h.deps.db, file);
    const admin = await h.admin();
    const { data } = await (await admin.call("GET", "/models")).json();
    expect(data.map((m: { name: string; displayName: string }) => [m.name, m.displayName])).toEqual([
      ["builtin", "Built-in development model"],
      ["qwen", "Qwen renamed"],
      ["llama", "Model llama"],
    ]);
    expect(data[1].rateCard).toEqual({ id: "rc-qwen", inputPerMillion: 0.5, outputPerMillion: 1.5 });
  });

  it("refuses a bad MODELS_FILE entry with its index", async () => {
    await fresh();
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "models-")), "models.json");
    fs.writeFileSync(file, JSON.stringify([upstreamModel("ok"), { name: "bad" }]));
    await expect(applyModelsFile(h.deps.db, file)).rejects.toThrow(/entry 1: displayName/);
  });

  it("refuses a model name with a . or .. part, which would address another model once the URL is resolved", async () => {
    await fresh();
    for (const name of ["team/../prod", "x/./y", "..", "a/.", "./a"]) {
      const parsed = modelNameParamSchema.safeParse({ name });
      expect(parsed.success ? null : parsed.error.issues[0].message, name).toBe(MODEL_NAME_DOT_SEGMENT);
    }
    for (const name of ["org/v1.5", "a..b/c", "qwen3:8b", ".hidden/x.y"]) expect(modelNameParamSchema.safeParse({ name }).success, name).toBe(true);
    // MODELS_FILE is read with the same rule: the start stops, naming the entry, and writes nothing.
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "models-")), "models.json");
    fs.writeFileSync(file, JSON.stringify([upstreamModel("prod"), upstreamModel("team/../prod", { displayName: "Someone else's" })]));
    await expect(applyModelsFile(h.deps.db, file)).rejects.toThrow(`entry 1: name: ${MODEL_NAME_DOT_SEGMENT}`);
    expect(await h.deps.db.selectFrom("models").select("name").where("name", "like", "%prod").execute()).toEqual([]);
    // And the service itself, whoever calls it.
    await expect(saveModel(h.deps, upstreamModel("a/../prod"))).rejects.toMatchObject({ status: 400, fields: { name: MODEL_NAME_DOT_SEGMENT } });
  });

  it("refuses a model name with an empty part (a leading or trailing / or a //), whose page no link would reach", async () => {
    await fresh();
    const operator = await h.signIn("Operator", "operator@example.test"); // first user: system admin in dev sign-in
    const body = { displayName: "Edge", provider: "vllm", contextSize: 4096, baseUrl: fake.url, upstreamModel: "echo" };
    for (const name of ["edge//double", "/lead", "trailing/", "/", "a/b//"]) {
      const parsed = modelNameParamSchema.safeParse({ name });
      expect(parsed.success ? null : parsed.error.issues[0].message, name).toBe(MODEL_NAME_EMPTY_SEGMENT);
      // The console's client sends the name's parts as they are (`/models/edge//double`): refused by field.
      const response = await operator.call("PUT", `/models/${name}`, { ...body, mode: "add" });
      expect({ status: response.status, fields: (await response.json()).fields }, name).toEqual({ status: 400, fields: { name: MODEL_NAME_EMPTY_SEGMENT } });
    }
    expect((await h.deps.db.selectFrom("models").select("name").execute()).map((m) => m.name)).toEqual(["builtin"]);
    // A name with slashes and no empty part is still a model.
    expect((await operator.call("PUT", "/models/org/model:tag", { ...body, mode: "add" })).status).toBe(200);
    // MODELS_FILE is read with the same rule, and so is the service itself.
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "models-")), "models.json");
    fs.writeFileSync(file, JSON.stringify([upstreamModel("fine"), upstreamModel("team//prod")]));
    await expect(applyModelsFile(h.deps.db, file)).rejects.toThrow(`entry 1: name: ${MODEL_NAME_EMPTY_SEGMENT}`);
    await expect(saveModel(h.deps, upstreamModel("/lead"))).rejects.toMatchObject({ status: 400, fields: { name: MODEL_NAME_EMPTY_SEGMENT } });
  });

  it("still lists, and deletes, a model saved with an empty name part before such names were refused", async () => {
    await fresh();
    const operator = await h.signIn("Operator", "operator@example.test");
    const legacy = {
      ...{ display_name: "Old", provider: "vllm", context_size: 4096, base_url: fake.url, upstream_model: "echo" },
      ...{ input_micros_per_million: 0, output_micros_per_million: 0, position: 9, created_at: clock },
    };
    await h.deps.db
      .insertInto("models")
      .values(["edge//double", "/lead", "trailing/"].map((name) => ({ name, ...legacy })))
      .execute();
    const { data } = await (await operator.call("GET", "/models")).json();
    expect(data.map((m: { name: string }) => m.name).sort()).toEqual(["/lead", "builtin", "edge//double", "trailing/"]);
    for (const name of ["edge//double", "/lead", "trailing/"]) expect((await operator.call("DELETE", `/models/${name}`)).status, name).toBe(200);
    expect((await h.deps.db.selectFrom("models").select("name").execute()).map((m) => m.name)).toEqual(["builtin"]);
  });

  it("is edited by admins of the system organization only", async () => {
    await fresh();
    const operator = await h.signIn("Operator", "operator@example.test"); // first user: system admin in dev sign-in
    const outsider = await h.admin("Other");
    const body = { displayName: "Edited", provider: "vllm", contextSize: 4096, baseUrl: fake.url, upstreamModel: "echo" };
    expect((await outsider.call("PUT", "/models/org/new-model", body)).status).toBe(403);
    expect((await operator.call("PUT", "/models/org/new-model", body)).status).toBe(200);
    const { data } = await (await outsider.call("GET", "/models")).json();
    expect(data.map((m: { name: string }) => m.name)).toContain("org/new-model");
    expect((await operator.call("DELETE", "/models/org/new-model")).status).toBe(200);
    expect((await operator.call("DELETE", "/models/org/new-model")).status).toBe(404);
  });
});
