import pg from "pg";

/** How long the server waits for PostgreSQL before answering 503 rather than hanging (decision 0109). */
export interface PostgresLimits {
  /** To open a connection, or to get one from a busy pool. */
  connectMs: number;
  /** PostgreSQL cancels a statement running longer (SQLSTATE 57014), releasing its locks. */
  statementMs: number;
  /**
   * A connection held longer than this by one piece of work is dropped from this side. A database that
   * stopped answering (a hung host, a partition) cancels nothing itself, and TCP notices only after
   * many minutes: without this, the queries on that connection would wait that long.
   */
  holdMs: number;
  /** PostgreSQL closes a session left in an open transaction this long (a process that died mid-way). */
  idleInTransactionMs: number;
}

export const POSTGRES_LIMITS: PostgresLimits = { connectMs: 5_000, statementMs: 30_000, holdMs: 40_000, idleInTransactionMs: 60_000 };

/**
 * A pool of PostgreSQL connections (10, pg's default) for the platform. With `limits`, no request
 * waits without bound for a database that is away; without (migrations, which may rightly run long),
 * it waits as pg does.
 */
export function postgresPool(connectionString: string, limits: PostgresLimits | null): pg.Pool {
  // int8 columns (times, money) come back as strings unless told otherwise; they fit in a double.
  pg.types.setTypeParser(20, (v) => Number(v));
  const pool = new pg.Pool(
    limits
      ? {
          connectionString,
          connectionTimeoutMillis: limits.connectMs,
          statement_timeout: limits.statementMs,
          idle_in_transaction_session_timeout: limits.idleInTransactionMs,
          keepAlive: true,
        }
      : { connectionString },
  );
  // An idle connection that breaks (a PostgreSQL restart, a failover) is dropped from the pool and the
  // next query opens a new one: a logged event, never a crash (unhandled, it would end the process).
  pool.on("error", (error) => console.error(`PostgreSQL connection lost (reconnecting on next use): ${error.message}`));
  // A connection that breaks while checked out fails its queries (the request answers 503), and pg
  // emits the same error on the client too, where the pool listens only while it is idle: unheard,
  // that second copy would end the process.
  pool.on("connect", (client) => client.on("error", () => {}));
  if (limits) dropConnectionsHeldPast(pool, limits.holdMs);
  return pool;
}

/**
 * Ends a checked-out connection's socket when it is held past `ms`: the query waiting on it fails with
 * "Connection terminated unexpectedly" (a 503, platform/db/unavailable.ts) and the pool replaces the
 * connection, which a query timeout of pg's own does not do (it would hand back a connection still
 * busy, or with its transaction open).
 */
function dropConnectionsHeldPast(pool: pg.Pool, ms: number): void {
  const timers = new WeakMap<pg.PoolClient, NodeJS.Timeout>();
  pool.on("acquire", (client) => {
    const timer = setTimeout(() => {
      console.error(`PostgreSQL did not answer within ${ms} ms: dropping the connection`);
      (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    }, ms);
    timer.unref();
    timers.set(client, timer);
  });
  pool.on("release", (_error, client) => {
    clearTimeout(timers.get(client));
    timers.delete(client);
  });
}
