import { z } from "zod";

export const PAYMENT_MODES = ["manual", "auto", "invoice"] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];

const rateCardSchema = z.object({ id: z.string(), inputPerMillion: z.number(), outputPerMillion: z.number() });

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
  status: z.enum(["maintenance", "standby"]).nullable(),
});
export type ModelConfig = z.infer<typeof modelConfigSchema>;
export const modelConfigListSchema = z.object({ data: z.array(modelConfigSchema) });

/** What PUT /api/v1/models/{name} takes (the name travels in the path; no apiKey keeps the current one). */
export interface ModelBody {
  displayName: string;
  provider: string;
  contextSize: number;
  baseUrl: string | null;
  upstreamModel?: string;
  apiKey?: string | null;
  rateCard: { id: string; inputPerMillion: number; outputPerMillion: number } | null;
  status: "maintenance" | "standby" | null;
}

/** An organization as GET /api/v1/system/organizations sends it. */
export const organizationSummarySchema = z.object({
  id: z.number(),
  name: z.string(),
  memberCount: z.number(),
  paymentMode: z.enum(PAYMENT_MODES),
  balance: z.number(),
  createdAt: z.string(),
});
export type OrganizationSummary = z.infer<typeof organizationSummarySchema>;
export const organizationListSchema = z.object({ data: z.array(organizationSummarySchema) });
