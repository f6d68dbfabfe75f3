import { z } from "zod";
import { urlNumber } from "./ids";

/** SPEC §3 Model status; a status the console does not know reads as unknown. */
export const MODEL_STATUSES = ["online", "starting", "standby", "maintenance", "offline", "unknown"] as const;
export type ModelStatus = (typeof MODEL_STATUSES)[number];
/** The statuses an operator may set by hand; otherwise the upstream is probed. */
export const MODEL_STATUS_OVERRIDES = ["maintenance", "standby"] as const;
export type ModelStatusOverride = (typeof MODEL_STATUS_OVERRIDES)[number];

/** The model editor's rules (SPEC §3), checked by the form and again by the platform. */
export const MODEL_NAME_MAX = 100;
export const MODEL_NAME_PATTERN = /^[\w.:/-]+$/;
export const MODEL_NAME_RULE = "Use letters, digits and . _ : / - only";
/**
 * A name is a URL path under /models/: a `.` or `..` part between slashes would be resolved away on the
 * way (`team/../prod` reaches prod), so the editor would add, change or delete another model.
 */
export const MODEL_NAME_DOT_SEGMENT = "A part between slashes can't be . or ..";
export const hasDotSegment = (name: string): boolean => name.split("/").some((part) => part === "." || part === "..");
/**
 * Nor can a part be empty (a leading or trailing slash, or two in a row): the console's router drops
 * empty parts, so the model page's link would reach another path (`/lead`, `edge//double`) or none.
 */
export const MODEL_NAME_EMPTY_SEGMENT = "A part between slashes can't be empty: no / at the start or end, and no //";
export const hasEmptySegment = (name: string): boolean => name.split("/").some((part) => part === "");
export const DISPLAY_NAME_MAX = 200;
export const PROVIDER_MAX = 100;
export const CONTEXT_SIZE_MAX = 100_000_000;
export const UPSTREAM_MODEL_MAX = 200;
export const RATE_CARD_ID_MAX = 100;
/** Dollars per million tokens. */
export const PRICE_MAX = 1_000_000;
export const BASE_URL_REQUIRED = "An upstream model needs a base URL";
export const BASE_URL_RULE = "Enter a URL starting with http:// or https://";
export const BASE_URL_CREDENTIALS = "Put the key under API key: a base URL can't hold a user name or password";
export const BASE_URL_QUERY = "A base URL can't have a query (?) or a fragment (#): the upstream's paths are added to its end";
/** The key goes out in an Authorization header: a line break would add headers of its own. */
export const API_KEY_RULE = "An API key can't hold line breaks, control characters or characters outside ASCII";
export const API_KEY_PATTERN = /^[\x20-\x7e]*$/;

/**
 * Why a base URL can't be an upstream's, or null. Only http(s) with a host, no credentials (the key has
 * its own write-only field), no query or fragment (paths are appended), no spaces or control characters
 * (which the URL parser would silently drop or resolve into another address).
 */
export function baseUrlProblem(url: string): string | null {
  const spaceOrControl = /[\s\\]/.test(url) || [...url].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
  if (!/^https?:\/\/[^/\\]/i.test(url) || spaceOrControl || !URL.canParse(url)) return BASE_URL_RULE;
  const parsed = new URL(url);
  if (parsed.username || parsed.password) return BASE_URL_CREDENTIALS;
  if (/[?#]/.test(url)) return BASE_URL_QUERY;
  return null;
}
/** The editor keeps a model's key on an edit that sends none, but never for another host (decision 0124). */
export const API_KEY_FOR_NEW_BASE_URL = "Type the API key again to use it with a new base URL, or remove it";
/** The provider served inside the platform, which needs no upstream. */
export const BUILTIN_PROVIDER = "builtin";

export const rateCardSchema = z.object({ id: z.string(), inputPerMillion: z.number(), outputPerMillion: z.number() });
export type RateCard = z.infer<typeof rateCardSchema>;

/** SPEC §3 Model, as GET /api/v1/models sends it: never the upstream's address or key. */
export const modelSchema = z.object({
  name: z.string(),
  displayName: z.string(),
  provider: z.string(),
  contextSize: z.number(),
  rateCard: rateCardSchema.nullable().optional(),
});
export type Model = z.infer<typeof modelSchema>;
export type PublicModel = Model & { rateCard: RateCard | null };
export const modelListSchema = z.object({ data: z.array(modelSchema) });

/** GET /api/v1/models/status: model name → status; unknown statuses read as unknown. */
export const statusMapSchema = z.record(z.string(), z.enum(MODEL_STATUSES).catch("unknown"));
export type StatusMap = z.infer<typeof statusMapSchema>;

/** A model as GET /api/v1/system/models sends it: the editable record, with only whether a key is set. */
export const modelConfigSchema = z.object({
  name: z.string(),
  displayName: z.string(),
  provider: z.string(),
  contextSize: z.number(),
  baseUrl: z.string().nullable(),
  upstreamModel: z.string(),
  hasApiKey: z.boolean(),
  rateCard: rateCardSchema.nullable(),
  status: z.enum(MODEL_STATUS_OVERRIDES).nullable(),
  /** The output cap reserved for a request without max_tokens (issue 11); null: the context size. */
  defaultMaxTokens: z.number().nullable().optional(),
  alertErrorRatePct: z.number().nullable().optional(),
  alertTtftMs: z.number().nullable().optional(),
  publishMetrics: z.boolean().optional(),
  /**
   * Opaque: changes whenever the stored record does (decision 0138). An edit that sends it back is
   * refused 409 when someone saved the model since (absent from a platform that keeps none).
   */
  version: z.string().optional(),
});
export type ModelConfig = z.infer<typeof modelConfigSchema>;
export const modelConfigListSchema = z.object({ data: z.array(modelConfigSchema) });
export type ModelConfigList = z.infer<typeof modelConfigListSchema>;

const price = z.number().min(0).max(PRICE_MAX);

/** One model as an operator describes it: in MODELS_FILE, and (without the name) in PUT /models/{name}. */
export const modelInputSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .max(MODEL_NAME_MAX)
    .regex(MODEL_NAME_PATTERN, MODEL_NAME_RULE)
    .refine((name) => !hasDotSegment(name), MODEL_NAME_DOT_SEGMENT)
    .refine((name) => !hasEmptySegment(name), MODEL_NAME_EMPTY_SEGMENT),
  displayName: z.string().trim().min(1).max(DISPLAY_NAME_MAX),
  provider: z.string().trim().min(1).max(PROVIDER_MAX),
  contextSize: z.number().int().min(1).max(CONTEXT_SIZE_MAX),
  baseUrl: z
    .string()
    .superRefine((url, ctx) => {
      const problem = baseUrlProblem(url);
      if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
    })
    .nullable()
    .optional(),
  /** Write-only: absent keeps the current key, null removes it. */
  apiKey: z.string().regex(API_KEY_PATTERN, API_KEY_RULE).nullable().optional(),
  upstreamModel: z.string().trim().min(1).max(UPSTREAM_MODEL_MAX).optional(),
  rateCard: z
    .object({ id: z.string().trim().min(1).max(RATE_CARD_ID_MAX), inputPerMillion: price, outputPerMillion: price })
    .nullable()
    .optional(),
  status: z.enum(MODEL_STATUS_OVERRIDES).nullable().optional(),
  /** Issue 11: the output cap a request without max_tokens is reserved for, at most the context size. */
  defaultMaxTokens: z.number().int().min(1).max(CONTEXT_SIZE_MAX).nullable().optional(),
  /** Reliability (issue 17): alert above this error rate (%) or p50 time to first token (ms) over 15 minutes; publish platform-wide figures. */
  alertErrorRatePct: z.number().int().min(0).max(100).nullable().optional(),
  alertTtftMs: z.number().int().min(1).max(600_000).nullable().optional(),
  publishMetrics: z.boolean().optional(),
});
export type ModelInput = z.infer<typeof modelInputSchema>;

/**
 * What the editor means by a save (decision 0126): "add" a model under a name not taken (else 409 on
 * the name field), or "edit" one that is still there (else 404: another admin deleted it). A PUT
 * without `mode` creates or replaces, as before.
 */
export const MODEL_SAVE_MODES = ["add", "edit"] as const;
export type ModelSaveMode = (typeof MODEL_SAVE_MODES)[number];
export const MODEL_NAME_TAKEN = "A model with this name already exists";
/** PUT /models/{name} with `mode: "edit"` and a `version` the model no longer has: nothing is written (409). */
export const MODEL_CHANGED = "The model was changed since this version was read; nothing was saved";

/** PUT /api/v1/models/{name}: the name travels in the path. */
export const modelBodySchema = modelInputSchema
  .omit({ name: true })
  .extend({ mode: z.enum(MODEL_SAVE_MODES).optional(), version: z.string().max(100).optional() });
export type ModelBody = z.input<typeof modelBodySchema>;
/** The path parameter of PUT/DELETE /models/{name} (a name may hold slashes). */
export const modelNameParamSchema = z.object({ name: modelInputSchema.shape.name });

/**
 * The model editor's form field of each path of the PUT body, so a refusal lands next to its field
 * (the form flattens the rate card into three fields).
 */
export const MODEL_FORM_FIELD: Record<string, string> = {
  rateCard: "rateCardId",
  "rateCard.id": "rateCardId",
  "rateCard.inputPerMillion": "inputPerMillion",
  "rateCard.outputPerMillion": "outputPerMillion",
};

/** GET /openai/v1/models (OpenAI's list shape). */
export const openAiModelListSchema = z.object({
  object: z.literal("list"),
  data: z.array(z.object({ id: z.string(), object: z.literal("model"), created: z.number(), owned_by: z.string() })),
});
export type OpenAiModelList = z.infer<typeof openAiModelListSchema>;

/* ---- Model reliability (issue 17, decision 0086): figures from the platform's own traffic. ---- */

/** Alert thresholds and publication, set per model in the model editor. */
export const ALERT_TTFT_MS_MAX = 600_000;
export const ALERT_WINDOW_MINUTES = 15;
export const HISTORY_DAYS_MAX = 30;

/** Figures of a set of requests: error rate 0..1 (upstream errors, 429 and 503 over all requests; client aborts are not errors). */
export const reliabilityFiguresSchema = z.object({
  requests: z.number(),
  errors: z.number(),
  aborted: z.number(),
  errorRate: z.number().nullable(),
  p50TtftMs: z.number().nullable(),
  tokensPerSecond: z.number().nullable(),
});
export type ReliabilityFigures = z.infer<typeof reliabilityFiguresSchema>;

/** GET /api/v1/models/metrics: per model, the caller's organization's last hour, and the platform's where published. */
export const modelMetricsSchema = z.object({
  name: z.string(),
  lastHour: reliabilityFiguresSchema,
  platformLastHour: reliabilityFiguresSchema.nullable(),
  /** Share of the known time the model was online, 0..1; null when nothing was recorded yet. */
  uptime24h: z.number().nullable(),
  uptime7d: z.number().nullable(),
});
export type ModelMetrics = z.infer<typeof modelMetricsSchema>;
export const modelMetricsListSchema = z.object({ data: z.array(modelMetricsSchema) });

export const statusBandSchema = z.object({ status: z.enum(MODEL_STATUSES).catch("unknown"), from: z.number(), to: z.number() });
export type StatusBand = z.infer<typeof statusBandSchema>;
export const hourlyFiguresSchema = reliabilityFiguresSchema.extend({ hour: z.number() });
export type HourlyFigures = z.infer<typeof hourlyFiguresSchema>;

/** GET /api/v1/models/{name}/history?days=7 */
export const historyQuerySchema = z.object({ days: urlNumber().pipe(z.number().min(1).max(HISTORY_DAYS_MAX)).default("7") });
export const modelHistorySchema = z.object({
  name: z.string(),
  days: z.number(),
  from: z.number(),
  to: z.number(),
  uptime: z.number().nullable(),
  bands: z.array(statusBandSchema),
  /** The organization's hours with traffic, oldest first. */
  hours: z.array(hourlyFiguresSchema),
  /** The platform's, when the operator publishes this model's figures. */
  platformHours: z.array(hourlyFiguresSchema).nullable(),
});
export type ModelHistory = z.infer<typeof modelHistorySchema>;

export const modelAlertSchema = z.object({ model: z.string(), kind: z.enum(["errorRate", "latency"]), value: z.number(), threshold: z.number() });
export type ModelAlert = z.infer<typeof modelAlertSchema>;

/** GET /api/v1/system/models/metrics: every organization's traffic, with the alerts of the last 15 minutes. */
export const systemModelMetricsSchema = z.object({
  data: z.array(
    z.object({
      name: z.string(),
      lastHour: reliabilityFiguresSchema,
      last15m: reliabilityFiguresSchema,
      uptime24h: z.number().nullable(),
      uptime7d: z.number().nullable(),
    }),
  ),
  alerts: z.array(modelAlertSchema),
});
export type SystemModelMetrics = z.infer<typeof systemModelMetricsSchema>;
