/** Network failures on the way to PostgreSQL: the database is away, not the request wrong. */
const NETWORK = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "EPIPE"]);

/**
 * Whether an error means the database can't be reached or can't serve now (decision 0108): PostgreSQL
 * down, restarting or refusing connections (SQLSTATE class 08, and 57P01–57P03), the pool unable to
 * connect in time, a statement past its limit, or SQLite locked past its wait by another writer. Such a request is answered 503
 * with `Retry-After`, in one log line, rather than 500 with a stack.
 */
export function databaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // Several addresses for one host name, each refused, come as one AggregateError.
  if (error instanceof AggregateError && error.errors.some(databaseUnavailable)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    // 57014: a statement cancelled at the statement limit (decision 0109), a database too busy to answer.
    if (NETWORK.has(code) || code.startsWith("08") || ["57014", "57P01", "57P02", "57P03"].includes(code)) return true;
    if (code === "SQLITE_BUSY") return true;
  }
  return /^(Connection terminated|timeout exceeded when trying to connect)/.test(error.message);
}

/** What a client is told while the database is away, and when to try again. */
export const UNAVAILABLE_MESSAGE = "The service is temporarily unavailable. Try again shortly.";
export const UNAVAILABLE_RETRY_AFTER = "5";

/** One line per request while the database is away: the outage, not a stack per request. */
export function databaseAway(method: string, path: string, requestId: string | undefined, error: Error): void {
  console.error(`Database unavailable in ${method} ${path} (request ${requestId ?? "-"}): ${error.message || (error as { code?: string }).code || error.name}`);
}
