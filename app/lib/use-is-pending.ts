import type { Navigation } from "@remix-run/react";
import { useNavigation } from "@remix-run/react";

export interface PendingMatch {
  /** The submitted `intent` field. */
  intent?: string;
  /** The route the form posts to (default: any). */
  formAction?: string;
  /** Other submitted fields that must match (an id, so only that row's button is busy). */
  fields?: Record<string, string | number>;
}

/** Whether a navigation is the submission of the form described (a pure rule, tested without a browser). */
export function isPendingSubmission(
  navigation: Pick<Navigation, "state" | "formData" | "formAction">,
  { intent, formAction, fields = {} }: PendingMatch = {},
): boolean {
  const form = navigation.formData;
  if (navigation.state === "idle" || !form) return false;
  if (formAction !== undefined && navigation.formAction?.split("?")[0] !== formAction) return false;
  if (intent !== undefined && form.get("intent") !== intent) return false;
  return Object.entries(fields).every(([k, v]) => form.get(k) === String(v));
}

/** The one pending state of the console's forms: busy labels and disabled buttons read it. */
export function useIsPending(match: PendingMatch = {}): boolean {
  return isPendingSubmission(useNavigation(), match);
}
