import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { applyModelsFile, clearStatusCache, modelStatuses, saveModel } from "../../platform/models/service";
import { openUpstreamKeys, resealUpstreamKeys, storedKey as storedKeyFor } from "../../platform/models/upstream-keys";
import type { FakeUpstream } from "../fakes/openai-upstream";
import { startFakeUpstream } from "../fakes/openai-upstream";
import type { Harness } from "./harness";
import { startRefusal } from "./start-refusal";
import { createHarness } from "./harness";

const KEY = "sk-upstream-KEEP-ME-SECRET-123";
const SECRET = "a-secret-kept-apart-from-the-database-0123456789";
const OLD = SECRET;
const NEW = "the-secret-that-replaces-it-after-a-leak-9876543210";

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
    await openUpstreamKeys(h.deps.db, { secret: SECRET });
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

    expect(await openUpstreamKeys(h.deps.db, { secret: SECRET })).toEqual({ sealed: ["older"], underPrevious: [] });
    expect(await storedKey("older")).toMatch(/^enc:v1:/);
    expect(await openUpstreamKeys(h.deps.db, { secret: SECRET })).toEqual({ sealed: [], underPrevious: [] });
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
    await openUpstreamKeys(h.deps.db, { secret: SECRET });
    await saveModel(h.deps, model("sealed", KEY));

    expect((await startRefusal(openUpstreamKeys(h.deps.db, {}))).message).toBe(
      "The upstream API keys in the database are sealed (model 'sealed'): set UPSTREAM_KEYS_SECRET to the secret they were sealed with.",
    );
    expect((await startRefusal(openUpstreamKeys(h.deps.db, { secret: `another-${SECRET}` }))).message).toBe(
      "UPSTREAM_KEYS_SECRET does not open the upstream API key of model 'sealed': set the secret the keys were sealed with.",
    );
    // The right secret opens it again.
    await openUpstreamKeys(h.deps.db, { secret: SECRET });
    expect(await chat("sealed")).toBe(200);
  });

  it("stores keys as given without a secret, as before", async () => {
    h = await createHarness();
    await openUpstreamKeys(h.deps.db, {});
    await saveModel(h.deps, model("plain", KEY));
    expect(await storedKey("plain")).toBe(KEY);
    expect(await chat("plain")).toBe(200);
  });
});

describe("rotating UPSTREAM_KEYS_SECRET, or taking it away (decision 0118)", () => {
  const auditOf = (action: "upstream_keys.sealed" | "upstream_keys.unsealed") =>
    h.deps.db.selectFrom("audit_log").select(["org_id", "new_value"]).where("action", "=", action).execute();

  it("reads keys sealed under either secret mid-rotation, seals new ones under the new, and re-seals the old ones once", async () => {
    h = await createHarness();
    await openUpstreamKeys(h.deps.db, { secret: OLD });
    await saveModel(h.deps, model("old", KEY));
    const underOld = await storedKey("old");

    // The new secret alone can't open what the old one sealed.
    expect((await startRefusal(openUpstreamKeys(h.deps.db, { secret: NEW }))).message).toBe(
      "UPSTREAM_KEYS_SECRET does not open the upstream API key of model 'old': set the secret the keys were sealed with.",
    );
    // With the old one as previous, the start neither refuses nor re-seals: processes still on the old
    // secret alone keep opening the key.
    expect(await openUpstreamKeys(h.deps.db, { secret: NEW, previous: OLD })).toEqual({ sealed: [], underPrevious: ["old"] });
    expect(await storedKey("old")).toBe(underOld);
    expect(await chat("old")).toBe(200);
    await saveModel(h.deps, model("new", KEY));
    expect(await chat("new")).toBe(200);
    expect(await openUpstreamKeys(h.deps.db, { secret: NEW, previous: OLD })).toEqual({ sealed: [], underPrevious: ["old"] });

    expect(await resealUpstreamKeys(h.deps, { secret: NEW, previous: OLD }, false)).toEqual({ changed: ["old"], unchanged: 1 });
    expect(await storedKey("old")).toMatch(/^enc:v1:/);
    expect(await storedKey("old")).not.toBe(underOld);
    // Idempotent: nothing left to change, nothing written.
    const resealed = await storedKey("old");
    expect(await resealUpstreamKeys(h.deps, { secret: NEW, previous: OLD }, false)).toEqual({ changed: [], unchanged: 2 });
    expect(await storedKey("old")).toBe(resealed);
    expect(await auditOf("upstream_keys.sealed")).toEqual([{ org_id: null, new_value: JSON.stringify({ models: ["old"] }) }]);

    // The previous secret is no longer needed, and the old one alone opens nothing any more.
    expect(await openUpstreamKeys(h.deps.db, { secret: NEW })).toEqual({ sealed: [], underPrevious: [] });
    expect(await chat("old")).toBe(200);
    expect(await chat("new")).toBe(200);
    expect((await startRefusal(openUpstreamKeys(h.deps.db, { secret: OLD }))).message).toBe(
      "UPSTREAM_KEYS_SECRET does not open the upstream API key of model 'new': set the secret the keys were sealed with.",
    );
  });

  it("seals keys stored as given when re-sealing, as the start does", async () => {
    h = await createHarness();
    await saveModel(h.deps, model("plain", KEY));
    expect(await resealUpstreamKeys(h.deps, { secret: NEW }, false)).toEqual({ changed: ["plain"], unchanged: 0 });
    expect(await storedKey("plain")).toMatch(/^enc:v1:/);
    await openUpstreamKeys(h.deps.db, { secret: NEW });
    expect(await chat("plain")).toBe(200);
  });

  it("takes the secret away: with the previous one alone keys are read and new ones stored as given, then unsealed", async () => {
    h = await createHarness();
    await openUpstreamKeys(h.deps.db, { secret: OLD });
    await saveModel(h.deps, model("sealed", KEY));

    expect(await openUpstreamKeys(h.deps.db, { previous: OLD })).toEqual({ sealed: [], underPrevious: ["sealed"] });
    expect(await chat("sealed")).toBe(200);
    await saveModel(h.deps, model("given", KEY));
    expect(await storedKey("given")).toBe(KEY);

    expect(await resealUpstreamKeys(h.deps, { previous: OLD }, true)).toEqual({ changed: ["sealed"], unchanged: 1 });
    expect(await storedKey("sealed")).toBe(KEY);
    expect(await resealUpstreamKeys(h.deps, { previous: OLD }, true)).toEqual({ changed: [], unchanged: 2 });
    expect(await auditOf("upstream_keys.unsealed")).toEqual([{ org_id: null, new_value: JSON.stringify({ models: ["sealed"] }) }]);

    // No secret at all now.
    expect(await openUpstreamKeys(h.deps.db, {})).toEqual({ sealed: [], underPrevious: [] });
    expect(await chat("sealed")).toBe(200);
  });

  it("changes nothing, naming the model, when a key opens with neither secret; the start refuses it too", async () => {
    h = await createHarness();
    const OTHER = `some-other-${SECRET}`;
    await openUpstreamKeys(h.deps.db, { secret: OLD });
    await saveModel(h.deps, model("a-old", KEY));
    await openUpstreamKeys(h.deps.db, { secret: OTHER, previous: OLD });
    await saveModel(h.deps, model("b-other", KEY));
    const before = [await storedKey("a-old"), await storedKey("b-other")];

    const refusal =
      "Neither UPSTREAM_KEYS_SECRET nor UPSTREAM_KEYS_SECRET_PREVIOUS opens the upstream API key of model 'b-other': set the secret the keys were sealed with.";
    expect(await resealUpstreamKeys(h.deps, { secret: NEW, previous: OLD }, false)).toEqual({ unopened: "b-other", message: refusal });
    expect(await resealUpstreamKeys(h.deps, { previous: OLD }, true)).toEqual({
      unopened: "b-other",
      message: "UPSTREAM_KEYS_SECRET_PREVIOUS does not open the upstream API key of model 'b-other': set the secret the keys were sealed with.",
    });
    expect([await storedKey("a-old"), await storedKey("b-other")]).toEqual(before);
    expect(await auditOf("upstream_keys.sealed")).toEqual([]);
    expect((await startRefusal(openUpstreamKeys(h.deps.db, { secret: NEW, previous: OLD }))).message).toBe(refusal);
  });

  it("shows a model whose key this process cannot open offline, and every other model's status still", async () => {
    h = await createHarness();
    await openUpstreamKeys(h.deps.db, { secret: `some-other-${SECRET}` });
    const sealedElsewhere = storedKeyFor(h.deps.db, KEY);
    await openUpstreamKeys(h.deps.db, { secret: OLD });
    await saveModel(h.deps, model("a-old", KEY));
    await saveModel(h.deps, model("b-other", KEY));
    // Another process, on another secret (a rotation half done), saved a-old's key: this one cannot open it.
    await h.deps.db.updateTable("models").set({ api_key: sealedElsewhere }).where("name", "=", "a-old").execute();
    clearStatusCache(h.deps.db);
    const logged: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    try {
      expect(await modelStatuses(h.deps)).toMatchObject({ "a-old": "offline", "b-other": "online" });
    } finally {
      spy.mockRestore();
    }
    expect(logged.join("\n")).toContain("Status of a-old: An upstream API key is sealed with a secret this process does not have");
  });

  it("says so once per key, not on every status poll: again only when the key stored changes", async () => {
    h = await createHarness();
    await openUpstreamKeys(h.deps.db, { secret: `some-other-${SECRET}` });
    const sealedElsewhere = [storedKeyFor(h.deps.db, KEY), storedKeyFor(h.deps.db, KEY)];
    await openUpstreamKeys(h.deps.db, { secret: OLD });
    await saveModel(h.deps, model("a-old", KEY));
    const sealAgain = (sealed: string | null) => h.deps.db.updateTable("models").set({ api_key: sealed }).where("name", "=", "a-old").execute();
    await sealAgain(sealedElsewhere[0]);
    const logged: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    const polls = async (count: number) => {
      for (let i = 0; i < count; i++) {
        // Past the probes' 30 s cache too: each poll of each open page.
        clearStatusCache(h.deps.db);
        expect((await modelStatuses(h.deps))["a-old"]).toBe("offline");
      }
    };
    try {
      await polls(3);
      expect(logged.filter((line) => line.startsWith("Status of a-old:"))).toHaveLength(1);
      // Another process on the other secret saved the key again.
      await sealAgain(sealedElsewhere[1]);
      await polls(2);
      expect(logged.filter((line) => line.startsWith("Status of a-old:"))).toHaveLength(2);
    } finally {
      spy.mockRestore();
    }
  });
});
