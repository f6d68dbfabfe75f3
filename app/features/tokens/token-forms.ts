import { z } from "zod";
import type { ExpiryChoice } from "./token-rules";
import { isExpiryChoice } from "./token-rules";

const EXPIRY_MESSAGE = "Choose an expiry: 1 day, 7 days, 30 days or never";

/** The create form (conform): any scopes, none required (SPEC §5), and one of the expiry choices. */
export const createTokenForm = z.object({
  intent: z.literal("create"),
  scopes: z.array(z.string().max(100)).max(50).default([]),
  expiry: z
    .string({ required_error: EXPIRY_MESSAGE })
    .refine(isExpiryChoice, EXPIRY_MESSAGE)
    .transform((v) => v as ExpiryChoice),
});

/** The page's one-button forms. */
export const tokenIntentForm = z.discriminatedUnion("intent", [z.object({ intent: z.literal("revoke"), publicId: z.string().min(1).max(100) }), z.object({ intent: z.literal("reset") })]);
