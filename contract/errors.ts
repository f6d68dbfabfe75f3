import { z } from "zod";

/**
 * The one error body of /api/v1 (DESIGN §3): a human message, and for a refused form the message of
 * each field, keyed by the form's field name.
 */
export const errorBodySchema = z.object({ error: z.string(), fields: z.record(z.string(), z.string()).optional() });
export type ErrorBody = z.infer<typeof errorBodySchema>;
export type FieldErrors = Record<string, string>;

/** The OpenAI shape that /chat/completions and /openai/v1 answer with instead (DESIGN §3, §5). */
export const openAiErrorBodySchema = z.object({
  error: z.object({ message: z.string(), type: z.string().optional(), code: z.string().nullable().optional() }),
});

/** Plain text longer than this (or HTML) is not a message a person should read. */
const PLAIN_TEXT_LIMIT = 300;

// Each read of a failed answer parses against these; made once (a zod schema binds its methods anew).
const fieldsOnly = z.object({ fields: errorBodySchema.shape.fields });
const contractMessage = z.object({ error: z.string().min(1) });
const openAiMessage = z.object({ error: z.object({ message: z.string().min(1) }) });

/**
 * The human text of a failed answer's body: the contract's `{"error": "…", fields?}`, OpenAI's
 * `{"error": {"message": "…"}}`, else a short plain-text body, else the caller's default (SPEC §8).
 */
export function readErrorBody(text: string, fallback: string): ErrorBody {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const plain = text.trim();
    return { error: plain && plain.length <= PLAIN_TEXT_LIMIT && !plain.startsWith("<") ? plain : fallback };
  }
  const fields = fieldsOnly.safeParse(body);
  const withFields = fields.success && fields.data.fields ? { fields: fields.data.fields } : {};
  const contract = contractMessage.safeParse(body);
  if (contract.success) return { error: contract.data.error, ...withFields };
  const openAi = openAiMessage.safeParse(body);
  if (openAi.success) return { error: openAi.data.error.message };
  return { error: fallback, ...withFields };
}

/** The first message of each field of a zod refusal, by its dotted path; `rename` maps paths to form names. */
export function fieldErrors(issues: readonly z.ZodIssue[], rename: Record<string, string> = {}): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of issues) {
    const path = issue.path.join(".");
    const field = rename[path] ?? path;
    if (field && !(field in fields)) fields[field] = issue.message;
  }
  return fields;
}

/** A zod refusal as one line, `field: message` (kept for clients that read only `error`). */
export function issueText(issues: readonly z.ZodIssue[], fallback = "Invalid request"): string {
  const issue = issues[0];
  if (!issue) return fallback;
  const field = issue.path.join(".");
  return field ? `${field}: ${issue.message}` : issue.message;
}
