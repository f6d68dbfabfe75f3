import type { RefObject } from "react";
import { useLayoutEffect } from "react";

/**
 * A control that goes away while it has focus (Stop once the reply ends, Cancel once the retry starts)
 * hands focus to `target` rather than leaving it on the page: checked as the control leaves, before the
 * browser drops its focus.
 */
export function useFocusOnRemoval(control: RefObject<HTMLElement>, target: RefObject<HTMLElement>): void {
  useLayoutEffect(() => {
    const element = control.current;
    const next = target.current;
    return () => {
      if (element && element === document.activeElement) next?.focus();
    };
  }, [control, target]);
}
