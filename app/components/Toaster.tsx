import { useEffect, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import type { Toast } from "~/toast.server";

/**
 * Shows a flash message from the root loader for a few seconds. Before JavaScript runs (or without
 * it), CSS hides it after the same time and the ✕ is a checkbox that hides it (`.toast-box` in app.css).
 */
export function Toaster({ toast }: { toast: Toast | null }) {
  const hydrated = useHydrated();
  const [shown, setShown] = useState(toast);
  useEffect(() => {
    setShown(toast);
    if (!toast) return;
    const timer = setTimeout(() => setShown(null), 5000);
    return () => clearTimeout(timer);
  }, [toast]);
  const tone = shown?.kind === "error" ? "alert-error" : shown?.kind === "success" ? "alert-success" : "alert-info";
  // The live region is always there, and the message is written into it: screen readers announce a
  // region's changes, and often not a region that appears with its text already in it.
  return (
    <div role="status" className="toast toast-end toast-box pointer-events-none z-50">
      {shown ? (
        <div className={`alert pointer-events-auto ${tone}`}>
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
      ) : null}
    </div>
  );
}
