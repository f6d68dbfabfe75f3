import net from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createPlatform } from "../../platform/app";
import { openDatabase } from "../../platform/db";
import type { DB } from "../../platform/db";
import { databaseUnavailable } from "../../platform/db/unavailable";

const url = process.env.TEST_DATABASE_URL;

/** A TCP relay to PostgreSQL that can stop passing bytes, both ways: a database host that hung. */
async function freezableRelay(target: URL) {
  let frozen = false;
  const held: Array<() => void> = [];
  const sockets = new Set<net.Socket>();
  const relay = (from: net.Socket, to: net.Socket) => from.on("data", (chunk) => (frozen ? held.push(() => to.write(chunk)) : to.write(chunk)));
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => sockets.delete(socket));
    }
    relay(client, upstream);
    relay(upstream, client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const relayed = new URL(target);
  relayed.host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    url: relayed.toString(),
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
      for (const write of held.splice(0)) write();
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** How long a promise took to settle, and with what. */
async function timed<T>(work: Promise<T>): Promise<{ ms: number; error: unknown }> {
  const start = performance.now();
  try {
    await work;
    return { ms: performance.now() - start, error: null };
  } catch (error) {
    return { ms: performance.now() - start, error };
  }
}

describe.runIf(url)("PostgreSQL that stops answering (decision 0109)", () => {
  let relay: Awaited<ReturnType<typeof freezableRelay>>;
  let db: DB;
  const logged = vi.spyOn(console, "error").mockImplementation(() => {});

  beforeAll(async () => {
    relay = await freezableRelay(new URL(url!));
    db = openDatabase({ url: relay.url, postgresLimits: { connectMs: 500, statementMs: 300, holdMs: 1_000, idleInTransactionMs: 5_000 } });
  });
  afterAll(async () => {
    relay.thaw();
    await db.destroy();
    await relay.close();
    logged.mockRestore();
  });

  it("fails a query on a hung connection within the hold limit, as the database being away, and recovers", async () => {
    await sql`select 1`.execute(db);
    relay.freeze();
    const hung = await timed(sql`select 1`.execute(db));
    expect(hung.error).toBeInstanceOf(Error);
    expect(databaseUnavailable(hung.error)).toBe(true);
    expect(hung.ms).toBeLessThan(3_000);
    expect(logged.mock.calls.map((args) => args.join(" "))).toContain("PostgreSQL did not answer within 1000 ms: dropping the connection");

    // The dropped connection is replaced by a new one, which cannot open either while the host hangs.
    const connecting = await timed(sql`select 1`.execute(db));
    expect(databaseUnavailable(connecting.error)).toBe(true);
    expect(String(connecting.error)).toMatch(/connection timeout|timeout exceeded when trying to connect/);
    expect(connecting.ms).toBeLessThan(2_000);

    relay.thaw();
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db);
    expect(rows).toEqual([{ one: 1 }]);
  });

  it("has PostgreSQL cancel a statement past the statement limit, as the database being away", async () => {
    const slow = await timed(sql`select pg_sleep(2)`.execute(db));
    expect((slow.error as { code?: string }).code).toBe("57014");
    expect(databaseUnavailable(slow.error)).toBe(true);
    expect(slow.ms).toBeLessThan(1_500);
  });

  it("answers a request 503 with Retry-After while the host hangs, within the limits", async () => {
    const app = createPlatform({
      db,
      now: Date.now,
      config: { sessionSecret: "test-secret-test-secret-test-secret", orgSignupEnabled: true, systemAdmins: [], oauth: {}, allowDevSignin: false },
    });
    relay.freeze();
    try {
      const start = performance.now();
      const reply = await app.fetch(new Request("http://localhost:3000/api/v1/auth/session", { headers: { cookie: "sid=whatever" } }));
      expect(reply.status).toBe(503);
      expect(reply.headers.get("retry-after")).toBe("5");
      expect(performance.now() - start).toBeLessThan(3_000);
    } finally {
      relay.thaw();
    }
  });
});
