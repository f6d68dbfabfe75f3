import { afterEach, describe, expect, it, vi } from "vitest";
import type { PlatformConfig } from "../platform/config";
import { openMigrated } from "../platform/db";
import { beginRequest } from "../platform/models/metrics";
import { mountEmbedded } from "./platform";

const config: PlatformConfig = {
  sessionSecret: "test-secret-test-secret-test-secret",
  orgSignupEnabled: true,
  systemAdmins: [],
  oauth: {},
  allowDevSignin: false,
};

afterEach(() => vi.restoreAllMocks());

describe("the embedded platform's close", () => {
  it("ends by its deadline when the database stops answering (a hung host): the metrics are named as not written, the database is still closed", async () => {
    const opened = await openMigrated({ path: ":memory:" }, () => {});
    // A database that takes every statement and never answers again, as a frozen PostgreSQL does.
    let frozen = false;
    const db = opened.withPlugin({
      transformQuery: ({ node }) => node,
      transformResult: ({ result }) => (frozen ? new Promise(() => {}) : Promise.resolve(result)),
    });
    const platform = mountEmbedded(db, config);
    // The background work's first rounds, done before the database stops answering.
    await new Promise((resolve) => setTimeout(resolve, 300));
    beginRequest({ db, config, now: Date.now }, "builtin", 1).end("completed", 3);
    frozen = true;
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});

    const started = Date.now();
    await platform.close(started + 1_500);

    expect(Date.now() - started).toBeLessThan(2_000);
    expect(errors.mock.calls.map((call) => String(call[0]))).toContainEqual(
      expect.stringMatching(/^Model metrics not written: the database did not answer within [\d.]+ s$/),
    );
    frozen = false;
    await expect(db.selectFrom("model_minute_stats").selectAll().execute()).rejects.toThrow(/destroyed/);
  });
});
