import { useEffect, useState } from "react";

/**
 * Counts whole seconds down from `seconds` while `active`, calling `onDone` once at zero.
 * Returns the seconds left (null when inactive). Leaving the page or deactivating cancels it.
 */
export function useCountdown(seconds: number | null, onDone: () => void): number | null {
  const [left, setLeft] = useState<number | null>(seconds);
  useEffect(() => {
    setLeft(seconds);
    if (seconds === null) return;
    const started = Date.now();
    const tick = setInterval(() => {
      const remaining = Math.max(0, seconds - Math.floor((Date.now() - started) / 1000));
      setLeft(remaining);
      if (remaining === 0) {
        clearInterval(tick);
        onDone();
      }
    }, 250);
    return () => clearInterval(tick);
    // onDone is read when the count ends; restarting on its identity would reset the countdown.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [seconds]);
  return left;
}
