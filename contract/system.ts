import { z } from "zod";
import { organizationName } from "./orgs";
import { dollarAmount, PAYMENT_MODES, paymentModeSchema } from "./billing";
import { beforeId, idFromUrl, pageLimit } from "./ids";
import { dollars } from "./money";

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
/**
 * GET /api/v1/system/organizations: newest first. `q` finds organizations whose name holds it (any
 * case); a number also finds the organization with that id, first. `limit` pages them (at most, and
 * without it, `ORGANIZATION_PAGE_MAX`: no answer grows with the number of organizations), and
 * `nextBefore`, sent back as `before`, asks for the page after.
 */
export const ORGANIZATION_SEARCH_MAX = 100;
export const ORGANIZATION_PAGE_MAX = 200;
export const organizationQuerySchema = z.object({
  q: z.string().trim().max(ORGANIZATION_SEARCH_MAX).optional(),
  before: beforeId.optional(),
  limit: pageLimit(ORGANIZATION_PAGE_MAX).optional(),
});
export type OrganizationQuery = z.infer<typeof organizationQuerySchema>;
export const organizationListSchema = z.object({ data: z.array(organizationSummarySchema), nextBefore: z.number().nullable() });
export type OrganizationList = z.infer<typeof organizationListSchema>;

/** PUT /api/v1/system/organizations/{id}: a new name, a payment mode, or both. */
export const organizationChangeSchema = z
  .object({ name: organizationName.optional(), paymentMode: z.enum(PAYMENT_MODES).optional() })
  .strict()
  .refine((v) => v.name !== undefined || v.paymentMode !== undefined, "Send a name or a paymentMode");
export type OrganizationChange = z.infer<typeof organizationChangeSchema>;

/** An id in the path; anything that isn't one is simply not found (the route answers 404). */
export const idParamSchema = z.object({ id: idFromUrl });

// ---- Issue 11 (B): credits granted by the operator ----

export const CREDIT_MAX = 10_000;
export const CREDIT_REASON_MAX = 200;
export const CREDIT_NOT_POSITIVE = "Amount must be more than $0";
export const CREDIT_TOO_LARGE = `Amount must be at most ${dollars(CREDIT_MAX)}`;
export const REASON_REQUIRED = "Enter a reason";
export const REASON_TOO_LONG = `Reason must be at most ${CREDIT_REASON_MAX} characters`;

/** A credit's reason: 1 to 200 characters after trimming. */
export const creditReason = z
  .string({ required_error: REASON_REQUIRED, invalid_type_error: REASON_REQUIRED })
  .trim()
  .min(1, REASON_REQUIRED)
  .max(CREDIT_REASON_MAX, REASON_TOO_LONG);

/** A credit's amount: dollars, more than 0 and at most $10,000, 2 decimals at most, a JSON number. */
export const creditAmount = dollarAmount("Amount")
  .refine((v) => v > 0, CREDIT_NOT_POSITIVE)
  .refine((v) => v <= CREDIT_MAX, CREDIT_TOO_LARGE);

/** POST /api/v1/system/organizations/{id}/credits: answered with the organization, its balance raised. */
export const grantCreditSchema = z.object({ amount: creditAmount, reason: creditReason }).strict();
export type GrantCredit = z.infer<typeof grantCreditSchema>;

/** What the ledger says of a granted credit. */
export const creditDescription = (reason: string) => `Credit: ${reason}`;
