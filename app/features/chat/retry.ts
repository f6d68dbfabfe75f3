import type { ModelStatus } from "~/features/models/status";

/** SPEC §4 and §9: a 503 (warming up) retries after 30 s, a 429 (rate limit) after 5 s, whatever Retry-After says. */
export const RETRY_SECONDS = { 503: 30, 429: 5 } as const;

export const RETRY_NOTICES = {
  503: "Model is warming up. This usually takes a few minutes for the first request.",
  429: "Rate limit exceeded. Please wait a moment.",
} as const;

export type RetryStatus = keyof typeof RETRY_SECONDS;

/**
 * Automatic retries of one send before the chat gives up and shows the server's error with a Retry
 * button (audit N L2): 25 s of a rate limit, or five minutes of a model warming up (its notice says
 * "a few minutes"). Before, a model that stayed busy was asked for as long as the page was open.
 */
export const MAX_AUTOMATIC_RETRIES: Record<RetryStatus, number> = { 503: 10, 429: 5 };

/** Whether a send that failed with `status` on its `attempt`-th retry (0: the send itself) may be retried again. */
export function mayRetryAgain(status: RetryStatus, attempt: number): boolean {
  return attempt < MAX_AUTOMATIC_RETRIES[status];
}

/** Whole seconds left of a countdown of `total` seconds started at `startedAt` (ms), never below 0. */
export function secondsLeft(total: number, startedAt: number, now: number): number {
  return Math.max(0, total - Math.floor(Math.max(0, now - startedAt) / 1000));
}

export function retryChip(seconds: number): string {
  return `Retrying in ${seconds}s`;
}

/** Statuses in which a model will not come up by itself: a 503 from it is not "warming up". */
export const UNAVAILABLE_STATUSES = ["maintenance", "offline", "standby"] as const;
export type UnavailableStatus = (typeof UNAVAILABLE_STATUSES)[number];

export const UNAVAILABLE_NOTICES: Record<UnavailableStatus, string> = {
  maintenance: "This model is under maintenance.",
  offline: "This model is offline.",
  standby: "This model is on standby.",
};

export function isUnavailableStatus(status: ModelStatus | string | null | undefined): status is UnavailableStatus {
  return (UNAVAILABLE_STATUSES as readonly string[]).includes(status ?? "");
}

/** A send answered that the model does not exist (any more): an operator deleted it while the chat was open (audit N L3). */
export const REMOVED_NOTICE = "This model was removed. Choose another model.";

/**
 * What the chat does with a failed answer: retry after a countdown, stop on an unavailable model, ask
 * for another model when this one was removed, or show the error.
 */
/** The code of the chat route's refusal of a send from a page of an organization no longer active (decision 0098). */
export const STALE_ORGANIZATION = "stale_organization";

export type FailureOutcome =
  { kind: "retry"; status: RetryStatus } | { kind: "unavailable"; status: UnavailableStatus } | { kind: "removed" } | { kind: "stale" } | { kind: "error" };

/**
 * The rule (issue 14): a 429 is always retried after 5 s. A 503 is "warming up" (retried after 30 s)
 * only when nothing says the model is down for longer: the platform's 503 for a model under
 * maintenance says so in its message, and the polled status may say maintenance, offline or standby.
 * Those show their status and stop, with no countdown; a model that is starting, unknown or (by a
 * stale poll) online is warming up. Either is retried at most `MAX_AUTOMATIC_RETRIES` times in a row.
 *
 * A 404 whose code is OpenAI's `model_not_found` is the platform's answer for a model it does not know:
 * the one chosen was deleted after the page loaded.
 */
export function classifyFailure(status: number, message: string, modelStatus: ModelStatus | null | undefined, code: string | null = null): FailureOutcome {
  if (status === 404 && code === "model_not_found") return { kind: "removed" };
  if (status === 409 && code === STALE_ORGANIZATION) return { kind: "stale" };
  if (status === 429) return { kind: "retry", status };
  if (status !== 503) return { kind: "error" };
  if (/under maintenance/i.test(message)) return { kind: "unavailable", status: "maintenance" };
  if (isUnavailableStatus(modelStatus)) return { kind: "unavailable", status: modelStatus };
  return { kind: "retry", status };
}
