/**
 * Runs `task` every `everyMs`, and at once if `atStart`, one run at a time: a run still going when the
 * next is due is not doubled. A failed run is logged as "`what` failed", and the next runs as planned.
 * `stop()` (graceful shutdown) clears the timer and waits for a run in progress, so the database it uses
 * can be closed after it.
 */
export function runPeriodically(what: string, task: () => Promise<unknown>, everyMs: number, { atStart }: { atStart: boolean }): { stop: () => Promise<void> } {
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= task()
      .then(
        () => undefined,
        (error: unknown) => console.error(`${what} failed:`, error),
      )
      .finally(() => {
        running = null;
      });
  };
  if (atStart) run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
