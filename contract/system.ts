import { z } from "zod";
import { organizationName } from "./orgs";
import { PAYMENT_MODES, paymentModeSchema } from "./billing";

/** Organization 1, made by the first migration: its members see the system pages (DESIGN §3). */
export const SYSTEM_ORG_ID = 1;

/** An organization as GET /api/v1/system/organizations sends it. */
export const organizationSummarySchema = z.object({
  id: z.number(),
  name: z.string(),
  memberCount: z.number(),
  paymentMode: paymentModeSchema,
  /** Dollars. */
  balance: z.number(),
  createdAt: z.string(),
});
export type OrganizationSummary = z.infer<typeof organizationSummarySchema>;
export const organizationListSchema = z.object({ data: z.array(organizationSummarySchema) });

/** PUT /api/v1/system/organizations/{id}: a new name, a payment mode, or both. */
export const organizationChangeSchema = z
  .object({ name: organizationName.optional(), paymentMode: z.enum(PAYMENT_MODES).optional() })
  .strict()
  .refine((v) => v.name !== undefined || v.paymentMode !== undefined, "Send a name or a paymentMode");
export type OrganizationChange = z.infer<typeof organizationChangeSchema>;

/** An id in the path; anything that isn't one is simply not found (the route answers 404). */
export const idParamSchema = z.object({ id: z.coerce.number().int().positive().safe() });
