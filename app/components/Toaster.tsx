import { useEffect, useState } from "react";
import type { Toast } from "~/toast.server";

/** Shows a flash message from the root loader for a few seconds. */
export function Toaster({ toast }: { toast: Toast | null }) {
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
    <div className="toast toast-end z-50">
      <div role="status" className={`alert ${tone}`}>
        <span>{shown.message}</span>
        <button type="button" className="btn btn-ghost btn-xs" onClick={() => setShown(null)} aria-label="Dismiss">
          ✕
        </button>
      </div>
    </div>
  );
}
