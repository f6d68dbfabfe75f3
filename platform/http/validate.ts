import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodSchema } from "zod";
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
    if (result.success) return;
    if (options.notFound) throw new PlatformError(404, options.notFound);
    const message = options.message ?? issueText(result.error.issues);
    const withFields = options.fields ?? (target === "json" || target === "form");
    throw new PlatformError(400, message, withFields ? { fields: fieldErrors(result.error.issues, options.rename) } : {});
  });
}
