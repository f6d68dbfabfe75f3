import {
  ALERT_TTFT_MS_MAX,
  API_KEY_PATTERN,
  API_KEY_RULE,
  BASE_URL_REQUIRED,
  BUILTIN_PROVIDER,
  CONTEXT_SIZE_MAX,
  DISPLAY_NAME_MAX,
  MODEL_FORM_FIELD,
  MODEL_NAME_MAX,
  MODEL_NAME_DOT_SEGMENT,
  MODEL_NAME_EMPTY_SEGMENT,
  MODEL_NAME_PATTERN,
  MODEL_NAME_RULE,
  PRICE_MAX,
  PROVIDER_MAX,
  RATE_CARD_ID_MAX,
  UPSTREAM_MODEL_MAX,
  baseUrlProblem,
  hasDotSegment,
  hasEmptySegment,
} from "@contract/models";
import { z } from "zod";
import type { ModelBody, ModelConfig } from "~/platform/system";

export const MODEL_STATUS_OVERRIDES = [
  { value: "", label: "Probe the upstream" },
  { value: "maintenance", label: "Maintenance" },
  { value: "standby", label: "Standby" },
] as const;

/** Providers an operator usually picks; any other OpenAI-compatible name is accepted. */
export const KNOWN_PROVIDERS = ["builtin", "vllm", "ollama", "openai"] as const;

/** The model form's fields, as text: what the page shows again after a refusal. */
export interface ModelFormValues {
  mode: "add" | "edit";
  name: string;
  displayName: string;
  provider: string;
  contextSize: string;
  baseUrl: string;
  upstreamModel: string;
  apiKey: string;
  clearApiKey: boolean;
  rateCardId: string;
  inputPerMillion: string;
  outputPerMillion: string;
  status: string;
  /** Issue 11: the output cap reserved for a request without max_tokens; blank: the context size. */
  defaultMaxTokens: string;
  /** Issue 17: alert above this error rate (whole %) or p50 time to first token (ms) over 15 minutes; blank: no alert. */
  alertErrorRatePct: string;
  alertTtftMs: string;
  /** Issue 17: every organization sees the whole platform's figures of this model. */
  publishMetrics: boolean;
}

export type ModelField = Exclude<keyof ModelFormValues, "mode" | "clearApiKey" | "publishMetrics">;
export type ModelFieldErrors = Partial<Record<ModelField, string>>;

export const EMPTY_MODEL_FORM: ModelFormValues = {
  mode: "add",
  name: "",
  displayName: "",
  provider: "vllm",
  contextSize: "8192",
  baseUrl: "",
  upstreamModel: "",
  apiKey: "",
  clearApiKey: false,
  rateCardId: "",
  inputPerMillion: "",
  outputPerMillion: "",
  status: "",
  defaultMaxTokens: "",
  alertErrorRatePct: "",
  alertTtftMs: "",
  publishMetrics: false,
};

/** The form filled from a stored model (the key stays blank: it is write-only). */
export function valuesOf(model: ModelConfig): ModelFormValues {
  return {
    mode: "edit",
    name: model.name,
    displayName: model.displayName,
    provider: model.provider,
    contextSize: String(model.contextSize),
    baseUrl: model.baseUrl ?? "",
    upstreamModel: model.upstreamModel,
    apiKey: "",
    clearApiKey: false,
    rateCardId: model.rateCard?.id ?? "",
    inputPerMillion: model.rateCard ? String(model.rateCard.inputPerMillion) : "",
    outputPerMillion: model.rateCard ? String(model.rateCard.outputPerMillion) : "",
    status: model.status ?? "",
    defaultMaxTokens: model.defaultMaxTokens == null ? "" : String(model.defaultMaxTokens),
    alertErrorRatePct: model.alertErrorRatePct == null ? "" : String(model.alertErrorRatePct),
    alertTtftMs: model.alertTtftMs == null ? "" : String(model.alertTtftMs),
    publishMetrics: model.publishMetrics ?? false,
  };
}

const text = (v: unknown) => (typeof v === "string" ? v : "");

/** Reads the submitted fields as text, whatever the browser did or did not check. */
export function readModelForm(fields: Record<string, unknown>): ModelFormValues {
  return {
    mode: fields.mode === "edit" ? "edit" : "add",
    name: text(fields.name),
    displayName: text(fields.displayName),
    provider: text(fields.provider),
    contextSize: text(fields.contextSize),
    baseUrl: text(fields.baseUrl),
    upstreamModel: text(fields.upstreamModel),
    apiKey: text(fields.apiKey),
    clearApiKey: fields.clearApiKey === "on",
    rateCardId: text(fields.rateCardId),
    inputPerMillion: text(fields.inputPerMillion),
    outputPerMillion: text(fields.outputPerMillion),
    status: text(fields.status),
    defaultMaxTokens: text(fields.defaultMaxTokens),
    alertErrorRatePct: text(fields.alertErrorRatePct),
    alertTtftMs: text(fields.alertTtftMs),
    publishMetrics: fields.publishMetrics === "on",
  };
}

const price = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?$/, "Enter a price in dollars, such as 0.50")
  .transform(Number)
  .refine((n) => n <= PRICE_MAX, "At most $1,000,000 per million tokens");

const modelFieldsSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, "Name is required")
      .max(MODEL_NAME_MAX, `Name must be at most ${MODEL_NAME_MAX} characters`)
      .regex(MODEL_NAME_PATTERN, MODEL_NAME_RULE)
      .refine((name) => !hasDotSegment(name), MODEL_NAME_DOT_SEGMENT)
      .refine((name) => !hasEmptySegment(name), MODEL_NAME_EMPTY_SEGMENT),
    displayName: z.string().trim().min(1, "Display name is required").max(DISPLAY_NAME_MAX, `Display name must be at most ${DISPLAY_NAME_MAX} characters`),
    provider: z.string().trim().min(1, "Provider is required").max(PROVIDER_MAX, `Provider must be at most ${PROVIDER_MAX} characters`),
    contextSize: z
      .string()
      .trim()
      .regex(/^\d+$/, "Enter a whole number of tokens")
      .transform(Number)
      .refine((n) => n >= 1 && n <= CONTEXT_SIZE_MAX, "Between 1 and 100,000,000 tokens"),
    baseUrl: z.string().trim(),
    upstreamModel: z.string().trim().max(UPSTREAM_MODEL_MAX, `Upstream model must be at most ${UPSTREAM_MODEL_MAX} characters`),
    apiKey: z.string().trim().max(1000, "API key must be at most 1000 characters").regex(API_KEY_PATTERN, API_KEY_RULE),
    clearApiKey: z.boolean(),
    rateCardId: z.string().trim().max(RATE_CARD_ID_MAX, `Rate card id must be at most ${RATE_CARD_ID_MAX} characters`),
    inputPerMillion: z.string().trim(),
    outputPerMillion: z.string().trim(),
    status: z.enum(["", "maintenance", "standby"], { message: "Choose a status override" }),
    defaultMaxTokens: z.string().trim().regex(/^\d*$/, "Enter a whole number of tokens"),
    alertErrorRatePct: z
      .string()
      .trim()
      .regex(/^\d*$/, "Enter a whole percentage from 0 to 100")
      .refine((v) => !v || Number(v) <= 100, "Enter a whole percentage from 0 to 100"),
    alertTtftMs: z
      .string()
      .trim()
      .regex(/^\d*$/, "Enter a whole number of milliseconds")
      .refine((v) => !v || (Number(v) >= 1 && Number(v) <= ALERT_TTFT_MS_MAX), "Between 1 and 600,000 ms"),
    publishMetrics: z.boolean(),
  })
  .superRefine((v, ctx) => {
    const issue = (path: ModelField, message: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
    if (v.baseUrl) {
      const problem = baseUrlProblem(v.baseUrl);
      if (problem) issue("baseUrl", problem);
    } else if (v.provider !== BUILTIN_PROVIDER) issue("baseUrl", BASE_URL_REQUIRED);
    if (v.defaultMaxTokens && (Number(v.defaultMaxTokens) < 1 || Number(v.defaultMaxTokens) > v.contextSize))
      issue("defaultMaxTokens", "Between 1 and the context size");
    const priced = v.rateCardId || v.inputPerMillion || v.outputPerMillion;
    if (priced) {
      if (!v.rateCardId) issue("rateCardId", "Name the rate card, or leave all three prices blank");
      for (const field of ["inputPerMillion", "outputPerMillion"] as const) {
        const parsed = price.safeParse(v[field] || "0");
        if (!parsed.success) issue(field, parsed.error.issues[0].message);
      }
    }
  });

type ParsedModelForm = z.output<typeof modelFieldsSchema>;

/** The platform's PUT body for valid fields. */
function bodyOf(v: ParsedModelForm): ModelBody {
  const priced = Boolean(v.rateCardId);
  return {
    displayName: v.displayName,
    provider: v.provider,
    contextSize: v.contextSize,
    baseUrl: v.baseUrl || null,
    ...(v.upstreamModel ? { upstreamModel: v.upstreamModel } : {}),
    // Write-only: blank keeps the current key, the checkbox removes it.
    ...(v.clearApiKey ? { apiKey: null } : v.apiKey ? { apiKey: v.apiKey } : {}),
    rateCard: priced ? { id: v.rateCardId, inputPerMillion: Number(v.inputPerMillion || 0), outputPerMillion: Number(v.outputPerMillion || 0) } : null,
    status: v.status || null,
    // Blank is left out, which the platform reads as none.
    defaultMaxTokens: v.defaultMaxTokens ? Number(v.defaultMaxTokens) : undefined,
    // Blank thresholds and an unchecked box are left out too: the platform stores no alert and no publication.
    alertErrorRatePct: v.alertErrorRatePct ? Number(v.alertErrorRatePct) : undefined,
    alertTtftMs: v.alertTtftMs ? Number(v.alertTtftMs) : undefined,
    publishMetrics: v.publishMetrics || undefined,
  };
}

/**
 * The model form for conform (parsed with `parseForm`'s `asTyped`): the submitted fields are read as
 * text first, so a blank price or base URL means "none" rather than "missing".
 */
export type ModelFormFields = Partial<Record<ModelField | "mode" | "clearApiKey" | "publishMetrics", string>>;
export const modelForm = z
  .preprocess((raw) => readModelForm(raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {}), modelFieldsSchema)
  .transform((v) => ({ name: v.name, body: bodyOf(v) })) as z.ZodType<{ name: string; body: ModelBody }, z.ZodTypeDef, ModelFormFields>;

/** An edit of a model another admin deleted since the form was opened (decision 0126): the form turns into an add. */
export const modelGoneMessage = (name: string) =>
  `Model ${name} no longer exists: another admin deleted it. Nothing was saved. Your changes are kept below; Add model adds it again (type its API key again if it needs one).`;

/**
 * An edit made from a version someone else's save replaced (decision 0138). The form, still an edit,
 * now carries the new version: saving again is a deliberate choice to replace theirs.
 */
export const modelChangedMessage = (name: string) =>
  `Another admin saved model ${name} after you opened it. Nothing was saved. Your changes are kept below, and the list shows theirs; Save changes again to replace them with yours.`;

/** The version an edit was made from, which the schema leaves aside; blank is none. */
export const versionOf = (raw: FormDataEntryValue | null): string | undefined => (typeof raw === "string" && raw.trim() ? raw.trim().slice(0, 100) : undefined);

/** The submitted mode, which the schema leaves aside (add or edit). */
export const modeOf = (raw: FormDataEntryValue | null): ModelFormValues["mode"] => (raw === "edit" ? "edit" : "add");

const MODEL_FIELDS = new Set<string>([
  "name",
  "displayName",
  "provider",
  "contextSize",
  "baseUrl",
  "upstreamModel",
  "apiKey",
  "rateCardId",
  "inputPerMillion",
  "outputPerMillion",
  "status",
  "defaultMaxTokens",
  "alertErrorRatePct",
  "alertTtftMs",
]);

/** The platform's per-field refusals placed on the form's fields; null when none of them is one. */
export function modelFieldErrorsOf(fields: Record<string, string> | undefined): ModelFieldErrors | null {
  const errors: ModelFieldErrors = {};
  for (const [path, message] of Object.entries(fields ?? {})) {
    // The contract's `fields` name the form's fields; a dotted body path is mapped as the platform maps it.
    const field = MODEL_FORM_FIELD[path] ?? MODEL_FORM_FIELD[path.split(".")[0]] ?? path.split(".")[0];
    if (MODEL_FIELDS.has(field)) errors[field as ModelField] ??= message;
  }
  return Object.keys(errors).length > 0 ? errors : null;
}
