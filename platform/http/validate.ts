import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodSchema } from "zod";
import { zodFields, zodMessage } from "./errors";

/** zValidator with the platform's error shape: 400 `{"error": "field: message"}`. */
export function valid<T extends ZodSchema, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, (result, c) => {
    if (!result.success) return c.json({ error: zodMessage(result.error), fields: zodFields(result.error) }, 400);
  });
}
