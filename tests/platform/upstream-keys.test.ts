import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { applyModelsFile, clearStatusCache, modelStatuses, saveModel } from "../../platform/models/service";
import { openUpstreamKeys } from "../../platform/models/upstream-keys";
import type { FakeUpstream } from "../fakes/openai-upstream";
import { startFakeUpstream } from "../fakes/openai-upstream";
import type { Harness } from "./harness";
import { startRefusal } from "./start-refusal";
import { createHarness } from "./harness";

const KEY = "sk-upstream-KEEP-ME-SECRET-123";
const SECRET = "a-secret-kept-apart-from-the-database-0123456789";

let fake: FakeUpstream;
let h: Harness;

beforeAll(async () => {
  // The fake refuses any other Authorization header with 401.
  fake = await startFakeUpstream({ apiKey: KEY });
});
afterAll(() => fake.close());
afterEach(() => h?.close());

const model = (name: string, apiKey?: string | null) => ({
  name,
  displayName: name,
  provider: "vllm" as const,
  contextSize: 32768,
  baseUrl: fake.url,
  upstreamModel: "echo",
  ...(apiKey === undefined ? {} : { apiKey }),
});

async function storedKey(name: string): Promise<string | null> {
  return (await h.deps.db.selectFrom("models").select("api_key").where("name", "=", name).executeTakeFirstOrThrow()).api_key;
}

/** A chat through the console's platform API: 200 only when the upstream got the right key. */
async function chat(name: string): Promise<number> {
  const admin = await h.admin();
  const response = await admin.call("POST", "/chat/completions", { model: name, messages: [{ role: "user", content: "Hi" }], stream: false });
  await response.text();
  return response.status;
}

describe("upstream API keys sealed with UPSTREAM_KEYS_SECRET (decision 0112)", () => {
  it("stores a key given to the model editor sealed, and sends the upstream the key itself", async () => {
    h = await createHarness();
    await openUpstreamKeys(h.deps.db, SECRET);
    await saveModel(h.deps, model("sealed", KEY));
    const stored = await storedKey("sealed");
    expect(stored).toMatch(/^enc:v1:/);
    expect(stored).not.toContain(KEY);
    expect(await chat("sealed")).toBe(200);
    expect(fake.requests.at(-1)?.authorization).toBe(`Bearer ${KEY}`);

    // An edit that sends no key keeps the sealed one as it is (not sealed twice); the probe uses it too.
    await saveModel(h.deps, { ...model("sealed"), displayName: "Renamed" });
    expect(await storedKey("sealed")).toBe(stored);
    expect(await chat("sealed")).toBe(200);
    clearStatusCache(h.deps.db);
    expect((await modelStatuses(h.deps)).sealed).toBe("online");
  });

  it("seals at start the keys stored before the secret was set, and those MODELS_FILE gives", async () => {
    h = await createHarness();
    await saveModel(h.deps, model("older", KEY));
    expect(await storedKey("older")).toBe(KEY);

    expect(await openUpstreamKeys(h.deps.db, SECRET)).toEqual({ sealed: ["older"] });
    expect(await storedKey("older")).toMatch(/^enc:v1:/);
    expect(await openUpstreamKeys(h.deps.db, SECRET)).toEqual({ sealed: [] });
    expect(await chat("older")).toBe(200);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "models-file-"));
    try {
      const file = path.join(dir, "models.json");
      fs.writeFileSync(file, JSON.stringify([model("from-file", KEY)]));
      await applyModelsFile(h.deps.db, file);
      expect(await storedKey("from-file")).toMatch(/^enc:v1:/);
      expect(await chat("from-file")).toBe(200);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("stops the start, in one line naming the model, without the secret or with another", async () => {
    h = await createHarness();
    await openUpstreamKeys(h.deps.db, SECRET);
    await saveModel(h.deps, model("sealed", KEY));

    expect((await startRefusal(openUpstreamKeys(h.deps.db, undefined))).message).toBe(
      "The upstream API keys in the database are sealed (model 'sealed'): set UPSTREAM_KEYS_SECRET to the secret they were sealed with.",
    );
    expect((await startRefusal(openUpstreamKeys(h.deps.db, `another-${SECRET}`))).message).toBe(
      "UPSTREAM_KEYS_SECRET does not open the upstream API key of model 'sealed': set the secret the keys were sealed with.",
    );
    // The right secret opens it again.
    await openUpstreamKeys(h.deps.db, SECRET);
    expect(await chat("sealed")).toBe(200);
  });

  it("stores keys as given without a secret, as before", async () => {
    h = await createHarness();
    await openUpstreamKeys(h.deps.db, undefined);
    await saveModel(h.deps, model("plain", KEY));
    expect(await storedKey("plain")).toBe(KEY);
    expect(await chat("plain")).toBe(200);
  });
});
