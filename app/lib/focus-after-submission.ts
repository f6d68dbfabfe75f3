import { useEffect, useRef } from "react";
import type { PendingMatch } from "./use-is-pending";
import { useIsPending } from "./use-is-pending";

/**
 * Focus kept through a form's own submission (DESIGN §6: forms keep focus). A button disabled while its
 * request runs, or a form that comes back afresh (a new name, a new balance: a new element), takes the
 * focus with it to the page's body, and the next Tab starts from the top. Once the submission `match`
 * describes is over, `target()` takes focus instead, if nothing has it: a refused field that took focus,
 * or a place the person moved to meanwhile, keeps it. As 0136 does for a token's Settings, `target` is
 * looked up when the answer has been rendered, so it finds the element that is there then.
 *
 * Call it from a component that stays mounted through the answer (the form's row or card, not a form
 * re-keyed by it), after the hooks whose effects put focus on a refusal.
 */
export function useFocusAfterSubmission(match: PendingMatch, target: () => HTMLElement | null | undefined): void {
  const pending = useIsPending(match);
  const sent = useRef(false);
  useEffect(() => {
    if (pending) {
      sent.current = true;
      return;
    }
    if (!sent.current) return;
    sent.current = false;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    target()?.focus();
  }, [pending, target]);
}
