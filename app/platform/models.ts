import { z } from "zod";
import { MODEL_STATUSES } from "~/features/models/status";

/** SPEC §3 Model, as GET /api/v1/models sends it. */
export const modelSchema = z.object({
  name: z.string(),
  displayName: z.string(),
  provider: z.string(),
  contextSize: z.number(),
  rateCard: z.object({ id: z.string(), inputPerMillion: z.number(), outputPerMillion: z.number() }).nullable().optional(),
});
export type Model = z.infer<typeof modelSchema>;

export const modelListSchema = z.object({ data: z.array(modelSchema) });

/** SPEC §3 Model status map: statuses the console does not know read as unknown. */
export const statusMapSchema = z.record(z.string(), z.enum(MODEL_STATUSES).catch("unknown"));
