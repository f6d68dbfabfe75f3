import path from "node:path";
import { z } from "zod";

const POSTGRES_URL = "must be a postgres:// or postgresql:// URL";
const NOT_A_URL =
  'is not a valid URL: percent-encode "/", "#", "?", "@" and ":" in the user name and password (or use a password of letters and digits, such as `openssl rand -hex 24`)';

/**
 * DATABASE_URL as the server and the operator commands read it. Anything but a PostgreSQL URL is
 * refused: falling through to SQLite would give each replica a private database of its own, silently.
 * An empty value counts as unset (compose passes `${VAR:-}`).
 */
export const databaseUrl = z
  .string()
  // One message a value: a wrong scheme, or a URL that does not parse (a password with "/" or "#"
  // left as typed, as `openssl rand -base64` makes them).
  .superRefine((value, ctx) => {
    if (!/^postgres(ql)?:\/\//i.test(value)) ctx.addIssue({ code: z.ZodIssueCode.custom, message: POSTGRES_URL });
    else if (!URL.canParse(value) || new URL(value).hash !== "") ctx.addIssue({ code: z.ZodIssueCode.custom, message: NOT_A_URL });
  })
  .optional()
  .or(z.literal("").transform(() => undefined));

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
