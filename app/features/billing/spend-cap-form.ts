import { z } from "zod";
import { SPEND_CAP_CENTS, SPEND_CAP_MAX, SPEND_CAP_NOT_A_NUMBER, SPEND_CAP_TOO_LARGE, SPEND_CAP_TOO_SMALL } from "@contract/billing";
import { hasAtMostCents } from "@contract/money";

/** The monthly spend cap form (conform): dollars, empty for no cap; the contract's rules and messages. */
export const spendCapForm = z.object({
  intent: z.literal("spend-cap"),
  monthlyCap: z
    .number({ invalid_type_error: SPEND_CAP_NOT_A_NUMBER })
    .finite(SPEND_CAP_NOT_A_NUMBER)
    .positive(SPEND_CAP_TOO_SMALL)
    .max(SPEND_CAP_MAX, SPEND_CAP_TOO_LARGE)
    .refine(hasAtMostCents, SPEND_CAP_CENTS)
    .optional(),
});
