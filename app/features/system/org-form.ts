import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import { creditAmount, creditReason } from "@contract/system";
import { idFromUrl } from "@contract/ids";
import { PAYMENT_MODES } from "~/platform/system";
import type { PaymentMode } from "~/platform/system";

export const PAYMENT_MODE_LABELS: Record<PaymentMode, string> = {
  manual: "Manual (prepaid)",
  auto: "Auto-reload (prepaid)",
  invoice: "Invoice",
};

// Digits, as the platform reads an id (decision 0140).
const organizationId = idFromUrl;

const NAME_REQUIRED = "Organization name is required";

/** Rename (a conform form: an empty field reaches zod as missing, hence the message twice). */
export const renameOrganizationForm = z.object({
  intent: z.literal("rename"),
  orgId: organizationId,
  name: z.string({ required_error: NAME_REQUIRED }).trim().min(1, NAME_REQUIRED).max(100, "Organization name must be at most 100 characters"),
});

/** The payment-mode select, a one-field form that saves on change. */
export const paymentModeForm = z.object({
  intent: z.literal("payment-mode"),
  orgId: organizationId,
  paymentMode: z.enum(PAYMENT_MODES, { message: "Choose manual, auto or invoice" }),
});

export const CREDIT_AMOUNT_REQUIRED = "Enter an amount";
export const CREDIT_AMOUNT_FORMAT = "Enter an amount in dollars, such as 25 or 12.50";

/**
 * A credit's fields (conform). The amount is typed text held to a plain decimal first (no `0x10`, no
 * `1e3`), then to the wire's rule (more than $0, at most $10,000, 2 decimals).
 */
const creditFields = {
  orgId: organizationId,
  amount: z
    .string({ required_error: CREDIT_AMOUNT_REQUIRED })
    .trim()
    .min(1, CREDIT_AMOUNT_REQUIRED)
    .regex(/^\d+(\.\d+)?$/, CREDIT_AMOUNT_FORMAT)
    .transform(Number)
    .pipe(creditAmount),
  reason: creditReason,
};

export const grantCreditForm = z.object({ intent: z.literal("grant-credit"), ...creditFields });

/** Reverse credit: what a grant takes, under the same rules, since the platform holds a reversal to them. */
export const reverseCreditForm = z.object({ intent: z.literal("reverse-credit"), ...creditFields });

/** The organization editor's forms. */
export const orgEditorForm = z.discriminatedUnion("intent", [renameOrganizationForm, paymentModeForm, grantCreditForm, reverseCreditForm]);

/**
 * The editor's answer to a refused form: the rename form's conform answer for its row (field
 * errors, the typed name), or a message for the page; successes redirect with a toast.
 */
export type OrgEditorResult =
  | { intent: "rename"; orgId: number; result: SubmissionResult<string[]>; message?: string }
  | { intent: "grant-credit"; orgId: number; result: SubmissionResult<string[]>; message?: string }
  | { intent: "reverse-credit"; orgId: number; result: SubmissionResult<string[]>; message?: string }
  | { intent: "payment-mode"; orgId: number | null; message: string };
