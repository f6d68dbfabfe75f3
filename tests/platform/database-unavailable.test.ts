import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createPlatform } from "../../platform/app";
import type { Deps } from "../../platform/context";
import { openDatabase } from "../../platform/db";
import type { DB } from "../../platform/db";
import { databaseUnavailable } from "../../platform/db/unavailable";
import { closedPort } from "./closed-port";

let db: DB;
let app: ReturnType<typeof createPlatform>;

beforeAll(async () => {
  db = openDatabase({ url: `postgres://console@127.0.0.1:${await closedPort()}/console` });
  const deps: Deps = {
    db,
    now: Date.now,
    config: { sessionSecret: "test-secret-test-secret-test-secret", orgSignupEnabled: true, systemAdmins: [], oauth: {}, allowDevSignin: false },
  };
  app = createPlatform(deps);
});
afterAll(() => db.destroy());

describe("while the database is away (decision 0108)", () => {
  it("answers 503 with Retry-After in the contract's shape and OpenAI's, logging one line, not a stack", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const session = await app.fetch(
        new Request("http://localhost:3000/api/v1/auth/session", { headers: { cookie: "sid=whatever", "x-request-id": "req-1" } }),
      );
      expect(session.status).toBe(503);
      expect(session.headers.get("retry-after")).toBe("5");
      expect(await session.json()).toEqual({ error: "The service is temporarily unavailable. Try again shortly." });

      const api = await app.fetch(
        new Request("http://localhost:3000/openai/v1/models", { headers: { authorization: "Bearer sk-not-checked-while-away", "x-request-id": "req-2" } }),
      );
      expect(api.status).toBe(503);
      expect(api.headers.get("retry-after")).toBe("5");
      expect((await api.json()).error).toMatchObject({ type: "server_error", code: "service_unavailable" });

      const lines = logged.mock.calls.map((args) => args.join(" "));
      expect(lines).toEqual([
        expect.stringMatching(/^Database unavailable in GET \/api\/v1\/auth\/session \(request req-1\): .*ECONNREFUSED/),
        expect.stringMatching(/^Database unavailable in GET \/openai\/v1\/models \(request req-2\): .*ECONNREFUSED/),
      ]);
    } finally {
      logged.mockRestore();
    }
  });

  it("tells a database away from a request gone wrong", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    expect(databaseUnavailable(refused)).toBe(true);
    expect(databaseUnavailable(new AggregateError([refused, refused]))).toBe(true);
    expect(databaseUnavailable(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }))).toBe(true);
    expect(databaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(databaseUnavailable(Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" }))).toBe(true);
    expect(databaseUnavailable(Object.assign(new Error('duplicate key value violates unique constraint "x"'), { code: "23505" }))).toBe(false);
    expect(databaseUnavailable(new TypeError("Cannot read properties of undefined"))).toBe(false);
  });
});
