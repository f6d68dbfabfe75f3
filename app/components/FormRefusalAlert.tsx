import type { SubmissionResult } from "@conform-to/react";
import { Alert } from "./Alert";

/**
 * A form's form-level error (conform keeps it under the empty key), shown by the page when the form
 * that would have shown it is gone: an admin demoted while the page was open sees the platform's
 * refusal instead of the form vanishing without a word. Give it the answer's arrival as `key`.
 */
export function FormRefusalAlert({ result }: { result: SubmissionResult<string[]> | undefined }) {
  const message = result?.error?.[""]?.[0];
  return message ? (
    <Alert kind="error" focus>
      {message}
    </Alert>
  ) : null;
}
