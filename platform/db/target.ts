import path from "node:path";
import { z } from "zod";

const POSTGRES_URL = "must be a postgres:// or postgresql:// URL";

/**
 * DATABASE_URL as the server and the operator commands read it. Anything but a PostgreSQL URL is
 * refused: falling through to SQLite would give each replica a private database of its own, silently.
 * An empty value counts as unset (compose passes `${VAR:-}`).
 */
export const databaseUrl = z
  .string()
  // One rule, so a value wrong in both ways is reported once.
  .refine((value) => /^postgres(ql)?:\/\//i.test(value) && URL.canParse(value), POSTGRES_URL)
  .optional()
  .or(z.literal("").transform(() => undefined));

export function isPostgresUrl(value: string): boolean {
  return databaseUrl.safeParse(value).success;
}

/** A PostgreSQL URL's host, port and database: what an operator needs to know, never the password. */
export function postgresHost(value: string): string {
  if (!URL.canParse(value)) return "not a URL";
  const url = new URL(value);
  return `${url.host}${url.pathname === "/" ? "" : url.pathname}`;
}

/** Which database a process uses, for operators: never the password. */
export function describeDatabase(options: { url?: string; path?: string }): string {
  if (options.url) return `PostgreSQL ${postgresHost(options.url)}`;
  const file = options.path ?? "data/console.db";
  return file === ":memory:" ? "SQLite in memory" : `SQLite ${path.resolve(file)}`;
}
