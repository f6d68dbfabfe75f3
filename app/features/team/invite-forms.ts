import { z } from "zod";
import { INVITE_MAX_USES_LIMIT, INVITE_MAX_USES_RULE, inviteKindSchema } from "@contract/orgs";
import type { CreateInvite, InviteKind } from "@contract/orgs";

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long a new code lasts (issue 14): never, by default, as before expiries existed. */
export const INVITE_EXPIRY_CHOICES = [
  { value: "never", label: "Never" },
  { value: "1", label: "1 day" },
  { value: "7", label: "7 days" },
  { value: "30", label: "30 days" },
] as const;
const EXPIRY_MESSAGE = "Choose an expiry: never, 1 day, 7 days or 30 days";

export const SINGLE_USE_MAXIMUM = "A single-use code has one use: press Multi-use invite for this maximum, or clear it";

/** The invite form (conform): the kind is the button pressed; an empty maximum means no limit. */
export const inviteForm = z
  .object({
    intent: z.literal("invite"),
    kind: inviteKindSchema,
    expiry: z.enum(["never", "1", "7", "30"], { errorMap: () => ({ message: EXPIRY_MESSAGE }) }).default("never"),
    maxUses: z
      .number({ invalid_type_error: INVITE_MAX_USES_RULE })
      .int(INVITE_MAX_USES_RULE)
      .min(1, INVITE_MAX_USES_RULE)
      .max(INVITE_MAX_USES_LIMIT, INVITE_MAX_USES_RULE)
      .optional(),
  })
  // A maximum typed for a single-use code would be dropped without a word (Enter in the field presses the
  // first button, Single-use): say so and keep it, so the person can press Multi-use instead.
  .refine((values) => values.kind !== "single-use" || values.maxUses === undefined || values.maxUses === 1, {
    path: ["maxUses"],
    message: SINGLE_USE_MAXIMUM,
  });
export type InviteFormValues = z.infer<typeof inviteForm>;

/** The platform's body: a single-use code has one use whatever the field says, so the maximum goes with multi-use only. */
export function inviteRequest(values: InviteFormValues, now: number): CreateInvite {
  return {
    status: values.kind,
    expiresAt: values.expiry === "never" ? null : now + Number(values.expiry) * DAY_MS,
    maxUses: values.kind === "multi-use" ? (values.maxUses ?? null) : null,
  };
}

/** "2 of 5" with a maximum, else the count. */
export function usesText(uses: number, maxUses: number | null): string {
  return maxUses === null ? String(uses) : `${uses} of ${maxUses}`;
}

export const INVITE_KIND_LABEL: Record<InviteKind, string> = { "single-use": "Single-use", "multi-use": "Multi-use" };
