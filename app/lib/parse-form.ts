import { parseWithZod } from "@conform-to/zod";
import { configureCoercion } from "@conform-to/zod/v3/future";
import type { ZodTypeAny } from "zod";

/**
 * A number as people type one: a plain decimal (`10`, `12.50`, `-1`, `.5`, `5.`). `Number()` also reads `0x10` (a
 * budget of $16), `1e3` and `Infinity`, which are not amounts anyone typed; the wire takes none of them
 * ("Nothing is coerced", contract/billing.ts), and every form now agrees (decision 0139). NaN otherwise.
 */
export function typedNumber(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value !== "string" || !/^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/.test(value)) return Number.NaN;
  return Number(value);
}

const { coerceFormValue } = configureCoercion({ type: { number: typedNumber } });

/**
 * Conform's `parseWithZod` with the console's reading of typed numbers, in the browser (`onValidate`) and
 * in the action alike: a field that is not a plain decimal number is refused with its schema's own
 * "must be a number" message. The console's forms parse through it (an ESLint rule says so).
 */
export function parseForm<Schema extends ZodTypeAny>(
  payload: FormData | URLSearchParams,
  options: {
    schema: Schema;
    /** The schema reads every field as the text typed and converts it itself (the model form's): nothing is coerced. */
    asTyped?: boolean;
  },
) {
  return parseWithZod(payload, {
    schema: options.asTyped ? options.schema : (coerceFormValue(options.schema) as unknown as Schema),
    disableAutoCoercion: true,
  });
}
