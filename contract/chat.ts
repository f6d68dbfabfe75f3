import { z } from "zod";
import { exactDollars } from "./money";

/** The header naming the completion's usage record (GET /api/v1/chat/receipts/{id}). */
export const RECEIPT_HEADER = "x-receipt-id";

const ONE_RATE = "this API bills each model at its one rate card";

/**
 * POST /api/v1/chat/completions and /openai/v1/chat/completions: OpenAI's request, of which the platform
 * reads these fields and passes the others on.
 */
export const chatRequestSchema = z
  .object({
    model: z.string().min(1, "model is required"),
    messages: z
      // No content at all is an assistant turn that only made tool calls, as OpenAI allows.
      .array(z.object({ role: z.string().min(1), content: z.union([z.string(), z.array(z.unknown()), z.null()]).optional() }).passthrough())
      .min(1, "messages must not be empty"),
    stream: z.boolean().optional(),
    stream_options: z.object({ include_usage: z.boolean().optional() }).passthrough().nullable().optional(),
    // Checked here, not left to the upstream: the request's hold is worked out from them (decision 0098).
    max_tokens: z.number().int().positive().nullable().optional(),
    max_completion_tokens: z.number().int().positive().nullable().optional(),
    // One choice a request: a hold, a cut stream and a receipt are for one answer (decision 0100).
    n: z
      .literal(1, { errorMap: () => ({ message: "only 1 is supported: ask once for each answer you need" }) })
      .nullable()
      .optional(),
    // What would make the provider charge more than the model's rate card, or keep the tenant's
    // conversation in the operator's provider account, is refused (decision 0125).
    service_tier: z
      .enum(["auto", "default", "flex"], { errorMap: () => ({ message: `only "auto", "default" and "flex" are offered: ${ONE_RATE}` }) })
      .nullable()
      .optional(),
    modalities: z
      .array(z.string())
      .refine((asked) => asked.every((m) => m === "text"), `only "text" is offered: ${ONE_RATE}`)
      .nullable()
      .optional(),
    audio: z.null({ errorMap: () => ({ message: `audio output is not offered: ${ONE_RATE}` }) }).optional(),
    web_search_options: z.null({ errorMap: () => ({ message: `web search is not offered: ${ONE_RATE}` }) }).optional(),
    store: z
      .literal(false, { errorMap: () => ({ message: "completions are not stored with the provider through this API: leave it out or send false" }) })
      .nullable()
      .optional(),
  })
  .passthrough();
export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** What the console's chat page sends to its resource route, and on (streamed) to the platform. */
export const chatSendSchema = z.object({
  model: z.string().min(1),
  messages: z.array(z.object({ role: z.enum(["user", "assistant"]), content: z.string() })).min(1),
});
export type ChatSend = z.infer<typeof chatSendSchema>;

export const CHAT_OUTCOMES = ["completed", "stopped", "failed"] as const;

/** A completion's usage record; `cost` in dollars. */
export const receiptSchema = z.object({
  id: z.string(),
  model: z.string(),
  rateCardId: z.string().nullable(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  reasoningTokens: z.number(),
  cost: z.number(),
  estimated: z.boolean(),
  outcome: z.string(),
});
export type Receipt = z.infer<typeof receiptSchema> & { createdAt?: number };

export const receiptParamSchema = z.object({ id: z.string().min(1).max(200) });

/** The upstream's usage figures, in a chunk or a whole answer. */
export interface UpstreamUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
}

/** One streamed chunk, as far as the console and the meter read it. */
export interface ChatChunk {
  choices?: { delta?: { content?: unknown; reasoning_content?: unknown; reasoning?: unknown } }[];
  usage?: UpstreamUsage | null;
}

/** The reply text and the reasoning sent apart (`reasoning_content` as vLLM and DeepSeek, `reasoning` as OpenRouter). */
export function deltaOf(chunk: ChatChunk): { content: string; reasoning: string } {
  const delta = chunk.choices?.[0]?.delta;
  const content = typeof delta?.content === "string" ? delta.content : "";
  const reasoning = typeof delta?.reasoning_content === "string" ? delta.reasoning_content : typeof delta?.reasoning === "string" ? delta.reasoning : "";
  return { content, reasoning };
}

// ---- Spend control (issue 11): the refusals of admission, as the client reads them ----
/** A request whose messages hold more characters than this is refused with 413 (config MAX_REQUEST_CHARS). */
export const DEFAULT_MAX_REQUEST_CHARS = 1_000_000;

export function insufficientBalanceMessage(worstCase: number, available: number): string {
  return `Insufficient balance: this request may cost up to ${exactDollars(worstCase)}, ${exactDollars(Math.max(0, available))} is available. Add funds to use this model.`;
}

export function monthlyCapMessage(worstCase: number, cap: number, spent: number): string {
  return `Monthly spend cap reached: this request may cost up to ${exactDollars(worstCase)}, and the organization has used ${exactDollars(spent)} of its ${exactDollars(cap)} cap this month (UTC).`;
}

export function tokenBudgetMessage(worstCase: number, budget: number, spent: number, period: "total" | "month"): string {
  const when = period === "month" ? " this month (UTC)" : "";
  return `Token budget exceeded: this request may cost up to ${exactDollars(worstCase)}, and this API token has used ${exactDollars(spent)} of its ${exactDollars(budget)} budget${when}.`;
}

export function allowListMessage(models: string[]): string {
  return `This API token may only call: ${models.join(", ")}`;
}

export function tooLargeMessage(limit: number): string {
  return `The request is too large: its messages may hold at most ${limit.toLocaleString("en-US")} characters.`;
}
