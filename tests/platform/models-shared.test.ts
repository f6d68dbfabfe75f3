import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Deps } from "../../platform/context";
import { migrate, openDatabase } from "../../platform/db";
import { modelStatuses, saveModel, STATUS_CACHE_MS } from "../../platform/models/service";
import type { FakeUpstream } from "../fakes/openai-upstream";
import { startFakeUpstream } from "../fakes/openai-upstream";

let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());

const config = { sessionSecret: "test-secret-test-secret-test-secret", orgSignupEnabled: true, systemAdmins: [], oauth: {}, allowDevSignin: false };

describe("model status across processes", () => {
  it("shows an operator's override on every process at once, while each keeps its own probe results", async () => {
    // Two processes: two connections to one database file, each with its own caches.
    const file = path.join(os.tmpdir(), `models-shared-${process.pid}-${Date.now()}.db`);
    let clock = 1_000_000;
    const a: Deps = { db: openDatabase({ path: file }), config, now: () => clock };
    const b: Deps = { db: openDatabase({ path: file }), config, now: () => clock };
    try {
      await migrate(a.db);
      const model = { name: "shared", displayName: "Shared", provider: "vllm", contextSize: 8192, baseUrl: fake.url, upstreamModel: "echo" };
      await saveModel(a, model);

      fake.modelsStatus = 503;
      expect((await modelStatuses(b)).shared).toBe("starting");
      fake.modelsStatus = 200;
      clock += 1_000;
      // B's probe is still fresh: reused, not repeated.
      expect((await modelStatuses(b)).shared).toBe("starting");

      await saveModel(a, { ...model, status: "maintenance" });
      expect((await modelStatuses(b)).shared).toBe("maintenance");
      await saveModel(a, { ...model, status: "standby" });
      expect((await modelStatuses(b)).shared).toBe("standby");

      // Override lifted: B is back to its probe, renewed once it is 30 s old.
      await saveModel(a, { ...model, status: null });
      expect((await modelStatuses(b)).shared).toBe("starting");
      clock += STATUS_CACHE_MS;
      expect((await modelStatuses(b)).shared).toBe("online");
    } finally {
      await a.db.destroy();
      await b.db.destroy();
    }
  });
});
