import { z } from "zod";
import { PAYMENT_MODES } from "~/platform/system";
import type { PaymentMode } from "~/platform/system";

export const PAYMENT_MODE_LABELS: Record<PaymentMode, string> = {
  manual: "Manual (prepaid)",
  auto: "Auto-reload (prepaid)",
  invoice: "Invoice",
};

const organizationId = z.coerce.number().int().positive();

/** The organization editor's two forms: rename, and the payment-mode select. */
export const orgEditorForm = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("rename"),
    orgId: organizationId,
    name: z.string().trim().min(1, "Organization name is required").max(100, "Organization name must be at most 100 characters"),
  }),
  z.object({ intent: z.literal("payment-mode"), orgId: organizationId, paymentMode: z.enum(PAYMENT_MODES, { message: "Choose manual, auto or invoice" }) }),
]);
export type OrgEditorForm = z.infer<typeof orgEditorForm>;
