import { zValidator } from "@hono/zod-validator";
import type { Context, ValidationTargets } from "hono";
import type { ZodIssue, ZodSchema } from "zod";
import { fieldErrors, issueText } from "@contract/errors";
import { PlatformError } from "./errors";

/**
 * zValidator with the platform's refusal: 400 `{"error": "field: message", fields}`. Only bodies are
 * forms, so only they name `fields` (renamed to the form's names by `rename`); a bad path parameter
 * is a thing not found (`notFound`), a bad query a plain 400 (unless `fields` says a parameter is a form's field too).
 * A body validated as JSON but sent as another type is refused 415 before its fields are read.
 */
export function valid<T extends ZodSchema, Target extends keyof ValidationTargets>(
  target: Target,
  schema: T,
  options: { rename?: Record<string, string>; notFound?: string; message?: string; fields?: boolean } = {},
) {
  const validator = zValidator(target, schema, (result) => {
    const issues = result.success ? unstorableIssues(result.data) : result.error.issues;
    if (issues.length === 0) return;
    if (options.notFound) throw new PlatformError(404, options.notFound);
    const message = options.message ?? issueText(issues);
    const withFields = options.fields ?? (target === "json" || target === "form");
    throw new PlatformError(400, message, withFields ? { fields: fieldErrors(issues, options.rename) } : {});
  });
  if (target !== "json") return validator;
  return (async (c, next) => {
    await refuseOtherThanJson(c);
    return validator(c, next);
  }) as typeof validator;
}

const NOT_JSON = "Send a JSON body with Content-Type: application/json";
// As Hono's validator reads a type as JSON: application/json or any +json, parameters aside.
const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * 415 for a body sent as anything but JSON (text/plain, a form, no type at all). Hono's validator reads
 * such a body as `{}`, so the refusal blamed a field ("name: Required") for what the client sent right.
 * No body at all is left to the schema, as before: a call whose body is optional still works without one.
 */
export async function refuseOtherThanJson(c: Context): Promise<void> {
  const type = c.req.header("content-type")?.split(";")[0].trim() ?? "";
  if (JSON_TYPE.test(type) || c.req.raw.body === null) return;
  // Read through Hono's cache, so the handler can still read it; an empty one is no body.
  if ((await c.req.text()) !== "") throw new PlatformError(415, NOT_JSON);
}

const NUL_MESSAGE = "must not contain a NUL character";
const BROKEN_MESSAGE = "must be valid Unicode text (it holds half of a surrogate pair)";
// Half of a UTF-16 pair, which JSON's \u escapes can spell: SQLite stored it as invalid UTF-8 (read
// back as three replacement characters) and PostgreSQL as one, so the same name read differently.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The first string of a valid input that can't be stored as it was sent, as a refusal, alike on both
 * databases: a NUL character (PostgreSQL can't store it in text, every statement binding it failed with
 * a 500, and SQLite can: 0130), or a lone surrogate (decision 0139).
 */
function unstorableIssues(value: unknown, path: (string | number)[] = []): ZodIssue[] {
  if (typeof value === "string") {
    if (value.includes("\0")) return [{ code: "custom", path, message: NUL_MESSAGE }];
    return LONE_SURROGATE.test(value) ? [{ code: "custom", path, message: BROKEN_MESSAGE }] : [];
  }
  if (typeof value !== "object" || value === null) return [];
  for (const [key, item] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const found = unstorableIssues(item, [...path, key]);
    if (found.length > 0) return found;
  }
  return [];
}
