import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodIssue, ZodSchema } from "zod";
import { fieldErrors, issueText } from "@contract/errors";
import { PlatformError } from "./errors";

/**
 * zValidator with the platform's refusal: 400 `{"error": "field: message", fields}`. Only bodies are
 * forms, so only they name `fields` (renamed to the form's names by `rename`); a bad path parameter
 * is a thing not found (`notFound`), a bad query a plain 400 (unless `fields` says a parameter is a form's field too).
 */
export function valid<T extends ZodSchema, Target extends keyof ValidationTargets>(
  target: Target,
  schema: T,
  options: { rename?: Record<string, string>; notFound?: string; message?: string; fields?: boolean } = {},
) {
  return zValidator(target, schema, (result) => {
    const issues = result.success ? nulIssues(result.data) : result.error.issues;
    if (issues.length === 0) return;
    if (options.notFound) throw new PlatformError(404, options.notFound);
    const message = options.message ?? issueText(issues);
    const withFields = options.fields ?? (target === "json" || target === "form");
    throw new PlatformError(400, message, withFields ? { fields: fieldErrors(issues, options.rename) } : {});
  });
}

const NUL_MESSAGE = "must not contain a NUL character";

/**
 * The first string of a valid input that holds a NUL character, as a refusal. PostgreSQL can't store
 * NUL in text (every statement binding it fails, a 500) and SQLite can: refused alike on both (0130).
 */
function nulIssues(value: unknown, path: (string | number)[] = []): ZodIssue[] {
  if (typeof value === "string") return value.includes("\0") ? [{ code: "custom", path, message: NUL_MESSAGE }] : [];
  if (typeof value !== "object" || value === null) return [];
  for (const [key, item] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const found = nulIssues(item, [...path, key]);
    if (found.length > 0) return found;
  }
  return [];
}
