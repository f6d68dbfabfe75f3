import type { RefObject } from "react";
import { useEffect, useRef } from "react";

/**
 * A number that changes each time `result` is a new value (an action's answer, a conform `lastResult`).
 * Used as the `key` of what shows the result, so it mounts again and takes focus again even when a
 * second submission answers the same text (decision 0091).
 */
export function useArrivalKey(result: unknown): number {
  const last = useRef(result);
  const count = useRef(0);
  if (last.current !== result) {
    last.current = result;
    count.current += 1;
  }
  return count.current;
}

/**
 * Focus for the element that shows a submission's result, when it mounts or `arrival` changes (a new
 * code in the same element), while `enabled` (decision 0091). Spread the
 * props on it: `tabIndex` makes it focusable, `autoFocus` lets the browser focus it on a page answered
 * without JavaScript (React renders the attribute on the server but only focuses form controls itself
 * on the client, hence the effect).
 *
 * Focus already inside the element stays where it is: a field refused by the server, wrapped with its
 * error, is focused by conform itself with JavaScript (the input, to correct it), and by the browser's
 * `autofocus` on the wrapper without it (decision 0139).
 */
export function useFocusOnArrival<T extends HTMLElement>(enabled = true, arrival?: unknown): { ref: RefObject<T>; tabIndex?: number; autoFocus?: boolean } {
  const ref = useRef<T>(null);
  useEffect(() => {
    const element = ref.current;
    if (enabled && element && !element.contains(document.activeElement)) element.focus();
  }, [enabled, arrival]);
  return enabled ? { ref, tabIndex: -1, autoFocus: true } : { ref };
}
