import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { applyModelsFile, listModels } from "../../platform/models/service";
import type { FakeUpstream } from "../fakes/openai-upstream";
import { startFakeUpstream } from "../fakes/openai-upstream";
import type { Harness } from "./harness";
import { createHarness } from "./harness";

let fake: FakeUpstream;
let h: Harness;

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
afterEach(async () => {
  await h?.close();
});

const entry = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  displayName: `Model ${name}`,
  provider: "vllm",
  contextSize: 131072,
  baseUrl: fake.url,
  apiKey: null,
  upstreamModel: "echo",
  rateCard: { id: `rc-${name}`, inputPerMillion: 1, outputPerMillion: 2 },
  status: null,
  ...extra,
});

function modelsFile(list: unknown): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "models-file-")), "models.json");
  fs.writeFileSync(file, JSON.stringify(list));
  return file;
}

async function model(name: string) {
  return h.deps.db.selectFrom("models").selectAll().where("name", "=", name).executeTakeFirst();
}

describe("MODELS_FILE at each start (audit F M2)", () => {
  it("leaves the model editor's changes alone while the file's entry is unchanged", async () => {
    h = await createHarness();
    const file = modelsFile([entry("echo"), entry("long")]);
    expect(await applyModelsFile(h.deps.db, file)).toEqual({ entries: 2, applied: ["echo", "long"] });

    const operator = await h.signIn("Operator", "operator@example.test"); // the first user: system admin
    const edited = {
      displayName: "Echo (edited)",
      provider: "vllm",
      contextSize: 131072,
      baseUrl: fake.url,
      upstreamModel: "echo",
      rateCard: { id: "rc-echo-2", inputPerMillion: 5, outputPerMillion: 5 },
      status: "maintenance",
    };
    expect((await operator.call("PUT", "/models/echo", edited)).status).toBe(200);
    expect((await operator.call("DELETE", "/models/long")).status).toBe(200);

    // A restart with the same file: the same entries, written in another order and spacing.
    fs.writeFileSync(file, JSON.stringify({ models: [entry("echo"), entry("long")].map((e) => Object.fromEntries(Object.entries(e).reverse())) }, null, 2));
    expect(await applyModelsFile(h.deps.db, file)).toEqual({ entries: 2, applied: [] });
    expect(await model("echo")).toMatchObject({
      display_name: "Echo (edited)",
      status_override: "maintenance",
      rate_card_id: "rc-echo-2",
      input_micros_per_million: 5_000_000,
    });
    expect(await model("long")).toBeUndefined();
  });

  it("applies an entry again once it changes in the file, and an entry taken out and put back", async () => {
    h = await createHarness();
    const file = modelsFile([entry("echo"), entry("long")]);
    await applyModelsFile(h.deps.db, file);
    await h.deps.db.updateTable("models").set({ display_name: "Edited", status_override: "maintenance" }).where("name", "=", "echo").execute();
    await h.deps.db.deleteFrom("models").where("name", "=", "long").execute();

    fs.writeFileSync(file, JSON.stringify([entry("echo", { rateCard: { id: "rc-echo-3", inputPerMillion: 3, outputPerMillion: 4 } })]));
    expect(await applyModelsFile(h.deps.db, file)).toEqual({ entries: 1, applied: ["echo"] });
    expect(await model("echo")).toMatchObject({ display_name: "Model echo", status_override: null, rate_card_id: "rc-echo-3" });
    expect(await model("long")).toBeUndefined();

    fs.writeFileSync(file, JSON.stringify([entry("echo", { rateCard: { id: "rc-echo-3", inputPerMillion: 3, outputPerMillion: 4 } }), entry("long")]));
    expect(await applyModelsFile(h.deps.db, file)).toEqual({ entries: 2, applied: ["long"] });
    expect(await model("long")).toMatchObject({ display_name: "Model long" });
  });

  it("changes nothing when a later entry is bad", async () => {
    h = await createHarness();
    const file = modelsFile([entry("fine"), { name: "bad" }]);
    await expect(applyModelsFile(h.deps.db, file)).rejects.toThrow(/entry 1: displayName/);
    expect(await model("fine")).toBeUndefined();
  });
});

describe("the models' order", () => {
  it("is the same on every database: ties of position (a file applied after an editor's add) by name, in code-unit order", async () => {
    h = await createHarness();
    await applyModelsFile(h.deps.db, modelsFile([entry("alpha"), entry("Zephyr"), entry("beta")]));
    await h.deps.db.updateTable("models").set({ position: 1 }).where("name", "in", ["alpha", "Zephyr", "beta"]).execute();
    const names = (await listModels(h.deps)).map((m) => m.name).filter((name) => ["alpha", "Zephyr", "beta"].includes(name));
    // SQLite's binary order, which a PostgreSQL cluster's collation (en-US: alpha, beta, Zephyr) is not.
    expect(names).toEqual(["Zephyr", "alpha", "beta"]);
  });
});
