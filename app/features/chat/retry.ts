/** SPEC §4 and §9: a 503 (warming up) retries after 30 s, a 429 (rate limit) after 5 s, whatever Retry-After says. */
export const RETRY_SECONDS = { 503: 30, 429: 5 } as const;

export const RETRY_NOTICES = {
  503: "Model is warming up. This usually takes a few minutes for the first request.",
  429: "Rate limit exceeded. Please wait a moment.",
} as const;

export type RetryStatus = keyof typeof RETRY_SECONDS;

export function isRetryStatus(status: number): status is RetryStatus {
  return status === 503 || status === 429;
}

/** Whole seconds left of a countdown of `total` seconds started at `startedAt` (ms), never below 0. */
export function secondsLeft(total: number, startedAt: number, now: number): number {
  return Math.max(0, total - Math.floor(Math.max(0, now - startedAt) / 1000));
}

export function retryChip(seconds: number): string {
  return `Retrying in ${seconds}s`;
}
