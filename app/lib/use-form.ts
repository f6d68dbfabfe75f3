import { useForm as useConformForm } from "@conform-to/react";

type Options<Schema extends Record<string, unknown>, FormValue, FormError> = Parameters<typeof useConformForm<Schema, FormValue, FormError>>[0];

/**
 * Conform's `useForm`, leaving the browser's own checks (`required`, `min`, `maxLength`) on until the page
 * is hydrated, as decision 0081 says; conform turns them off (`noValidate`) once its own validation runs.
 * Conform's default writes `novalidate` into the server's markup, so before JavaScript loaded, or without
 * it, a blank name or a $5 top-up went to the server and came back as a refused page instead of being
 * stopped in place. The console's forms take it from here (an ESLint rule says so).
 */
export function useForm<Schema extends Record<string, unknown>, FormValue = Schema, FormError = string[]>(
  options: Options<Schema, FormValue, FormError>,
): ReturnType<typeof useConformForm<Schema, FormValue, FormError>> {
  return useConformForm<Schema, FormValue, FormError>({ defaultNoValidate: false, ...options });
}
