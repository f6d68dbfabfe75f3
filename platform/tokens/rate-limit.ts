/**
 * A sliding-window counter kept in this process's memory (decision 0010): enough to stop a script
 * from minting thousands of tokens a minute. Several processes each keep their own window.
 */
export class SlidingWindow {
  private readonly hits = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Records a hit for `key` at `now`, or says how many ms remain until one is allowed. */
  take(key: string, now: number): { ok: true } | { ok: false; retryAfterMs: number } {
    const since = now - this.windowMs;
    const recent = (this.hits.get(key) ?? []).filter((t) => t > since);
    if (recent.length >= this.limit) {
      this.hits.set(key, recent);
      return { ok: false, retryAfterMs: recent[0] + this.windowMs - now };
    }
    recent.push(now);
    this.hits.set(key, recent);
    if (this.hits.size > 10_000) this.prune(since);
    return { ok: true };
  }

  private prune(since: number) {
    for (const [key, times] of this.hits) if (!times.some((t) => t > since)) this.hits.delete(key);
  }
}
