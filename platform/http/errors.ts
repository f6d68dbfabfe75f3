import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZodError } from "zod";

/** Every platform error has this body: `{"error": "human message"}` (DESIGN §3). */
export function fail(c: Context, status: ContentfulStatusCode, error: string, extra?: Record<string, unknown>) {
  return c.json({ error, ...extra }, status);
}

export function zodMessage(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "Invalid request";
  const field = issue.path.join(".");
  return field ? `${field}: ${issue.message}` : issue.message;
}

/** The first message of each field (its dotted path), for the contract's `fields`. */
export function zodFields(error: ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.join(".");
    if (field && !(field in fields)) fields[field] = issue.message;
  }
  return fields;
}

/** Thrown by services for expected refusals; the app turns it into `{error}` with its status. */
export class PlatformError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
  ) {
    super(message);
  }
}
