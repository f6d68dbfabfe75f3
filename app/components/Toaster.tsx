import { useEffect, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import type { Toast } from "~/toast.server";

/** How long a success or notice stays once nobody is pointing at it or focused in it. */
const TOAST_MS = 5000;

/**
 * Shows a flash message from the root loader. A success or notice goes after five seconds, but not
 * while the pointer is on it or the focus in it; an error stays until dismissed, and is announced at
 * once (`role="alert"`): it may be the only place its message is written (WCAG 2.2.1, 4.1.3). Before
 * JavaScript runs (or without it), CSS does the same (`.toast-box` in app.css) and the ✕ is a checkbox.
 */
export function Toaster({ toast }: { toast: Toast | null }) {
  const hydrated = useHydrated();
  const [shown, setShown] = useState(toast);
  const [held, setHeld] = useState(false);
  useEffect(() => setShown(toast), [toast]);
  useEffect(() => {
    if (!shown || shown.kind === "error" || held) return;
    const timer = setTimeout(() => setShown(null), TOAST_MS);
    return () => clearTimeout(timer);
  }, [shown, held]);
  useEffect(() => {
    if (!shown) setHeld(false);
  }, [shown]);

  const tone = shown?.kind === "error" ? "alert-error" : shown?.kind === "success" ? "alert-success" : "alert-info";
  const card = shown ? (
    <div
      className={`alert pointer-events-auto ${tone}`}
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setHeld(false);
      }}
    >
      <span>{shown.message}</span>
      {hydrated ? (
        <button type="button" className="btn btn-ghost btn-xs" onClick={() => setShown(null)} aria-label="Dismiss">
          ✕
        </button>
      ) : (
        <label className="btn btn-ghost btn-xs relative">
          <input type="checkbox" className="toast-dismiss sr-only" aria-label="Dismiss" />✕
        </label>
      )}
    </div>
  ) : null;
  // The status region is always there, and a success is written into it: screen readers announce a
  // region's changes, and often not a region that appears with its text already in it. An alert is
  // announced as it appears.
  return (
    <div className="toast toast-end toast-box pointer-events-none z-50">
      <div role="status">{shown?.kind !== "error" ? card : null}</div>
      {shown?.kind === "error" ? (
        <div role="alert" className="toast-error">
          {card}
        </div>
      ) : null}
    </div>
  );
}
