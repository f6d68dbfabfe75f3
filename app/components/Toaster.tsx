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
  if (!shown) return null;
  const tone = shown.kind === "error" ? "alert-error" : shown.kind === "success" ? "alert-success" : "alert-info";
  return (
    <div className="toast toast-end toast-box z-50">
      <div role="status" className={`alert ${tone}`}>
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
    </div>
  );
}
