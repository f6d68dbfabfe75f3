import { useCallback, useEffect, useRef, useState } from "react";

/**
 * Timers owned by a component: `schedule` runs `fn` after `ms`, and every pending timer is cleared on
 * unmount, so no timer survives leaving the page.
 */
export function useTimers() {
  const pending = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const timers = pending.current;
    return () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    };
  }, []);
  const schedule = useCallback((fn: () => void, ms: number) => {
    const t = setTimeout(() => {
      pending.current.delete(t);
      fn();
    }, ms);
    pending.current.add(t);
    return t;
  }, []);
  const cancelAll = useCallback(() => {
    for (const t of pending.current) clearTimeout(t);
    pending.current.clear();
  }, []);
  return { schedule, cancelAll };
}

/** An index that advances every `intervalMs` and wraps at `length` (the avatar's idle hints); it holds while `paused`. */
export function useRotatingIndex(length: number, intervalMs: number, paused = false): number {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (length < 2 || paused) return;
    const tick = setInterval(() => setIndex((i) => (i + 1) % length), intervalMs);
    return () => clearInterval(tick);
  }, [length, intervalMs, paused]);
  return index;
}

/**
 * True for `shownMs` once the page has been idle for `afterMs`; the cycle then starts again. Leaving
 * the idle state, or any change of `activity`, hides it and restarts the wait.
 */
export function useIdleNudge(idle: boolean, activity: unknown, afterMs: number, shownMs: number): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    setShown(false);
    if (!idle) return;
    let timer: ReturnType<typeof setTimeout>;
    const wait = () => {
      timer = setTimeout(show, afterMs);
    };
    const show = () => {
      setShown(true);
      timer = setTimeout(() => {
        setShown(false);
        wait();
      }, shownMs);
    };
    wait();
    return () => clearTimeout(timer);
  }, [idle, activity, afterMs, shownMs]);
  return shown;
}

export type Simulation<T> = { status: "idle" } | { status: "running" } | { status: "done"; result: T } | { status: "error"; message: string };

/**
 * A simulated generation: `run(produce)` shows progress for `delayMs`, then the result of `produce()`;
 * if `produce` throws, the `failure` text. No server call; the timer is cleared on unmount.
 */
export function useSimulation<T>(delayMs: number, failure: string) {
  const [state, setState] = useState<Simulation<T>>({ status: "idle" });
  const { schedule, cancelAll } = useTimers();
  const run = useCallback(
    (produce: () => T) => {
      cancelAll();
      setState({ status: "running" });
      schedule(() => {
        try {
          setState({ status: "done", result: produce() });
        } catch {
          setState({ status: "error", message: failure });
        }
      }, delayMs);
    },
    [cancelAll, schedule, delayMs, failure],
  );
  const reset = useCallback(() => {
    cancelAll();
    setState({ status: "idle" });
  }, [cancelAll]);
  return { state, running: state.status === "running", run, reset };
}
