import { z } from "zod";

/** What the console sends to its resource route, and on to POST /api/v1/chat/completions. */
export const chatSendSchema = z.object({
  model: z.string().min(1),
  messages: z.array(z.object({ role: z.enum(["user", "assistant"]), content: z.string() })).min(1),
});

/** A completion's usage record (GET /api/v1/chat/receipts/{id}). */
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
export type Receipt = z.infer<typeof receiptSchema>;
