import { z } from "zod";
import { spendCapSchema } from "@contract/billing";
import { typedNumber } from "~/lib/parse-form";

/**
 * The monthly spend cap form (conform): dollars, empty for no cap; the contract's rules and messages.
 * Read as typed (conform would coerce `1e3` to 1000) and refused unless a plain decimal, as add funds does.
 */
export const spendCapForm = z.object({
  intent: z.literal("spend-cap"),
  monthlyCap: z
    .unknown()
    .transform((value) => (value === undefined || (typeof value === "string" && value.trim() === "") ? undefined : typedNumber(value)))
    .pipe(spendCapSchema.shape.monthlyCap.unwrap().optional()),
});
