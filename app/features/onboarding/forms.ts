import { z } from "zod";

/**
 * The welcome screen's two forms (SPEC §5). Conform reads an empty field as missing, so each field
 * says its "required" message twice: for a missing value and for one that trims to nothing.
 */
const NAME_REQUIRED = "Enter a name for your organization";
const CODE_REQUIRED = "Enter your invite code";

export const createOrganizationForm = z.object({
  intent: z.literal("create"),
  name: z.string({ required_error: NAME_REQUIRED }).trim().min(1, NAME_REQUIRED).max(100, "Use at most 100 characters"),
});

export const joinOrganizationForm = z.object({
  intent: z.literal("join"),
  code: z.string({ required_error: CODE_REQUIRED }).trim().min(1, CODE_REQUIRED).max(100, "That invite code is too long"),
});

export type OnboardingIntent = "create" | "join";

export const onboardingSchema = (intent: OnboardingIntent) => (intent === "join" ? joinOrganizationForm : createOrganizationForm);
