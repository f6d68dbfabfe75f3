import { Link, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import type { ReactNode } from "react";
import { useEffect, useRef } from "react";

/** The URL of the current page with `?dialog=name` set (or removed, with null). */
export function useDialogHref(name: string | null): string {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  if (name) params.set("dialog", name);
  else params.delete("dialog");
  const search = params.toString();
  return `${location.pathname}${search ? `?${search}` : ""}`;
}

/** A link that opens a dialog; works before JavaScript loads because the dialog lives in the URL. */
export function DialogLink({ name, className, children, disabled }: { name: string; className?: string; children: ReactNode; disabled?: boolean }) {
  const href = useDialogHref(name);
  if (disabled) {
    return (
      <button type="button" className={className} disabled>
        {children}
      </button>
    );
  }
  return (
    <Link to={href} className={className} preventScrollReset replace>
      {children}
    </Link>
  );
}

const FIELDS = 'input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled])';
const FOCUSABLE = `${FIELDS}, button, a[href]:not([tabindex="-1"]), [tabindex="0"]`;

/**
 * A modal opened by `?dialog=name` (DESIGN §6), so it opens by URL as well as by a click and works
 * without JavaScript. Escape, the close button and the backdrop close it.
 */
export function UrlDialog({ name, title, children }: { name: string; title: string; children: ReactNode }) {
  const [params] = useSearchParams();
  const open = params.get("dialog") === name;
  const closeHref = useDialogHref(null);
  const navigate = useNavigate();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    const focusable = () => [...(box.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])].filter((el) => !el.hasAttribute("disabled"));
    // The first field (not the close button, and never a hidden input), else whatever comes first.
    (box.current?.querySelector<HTMLElement>(FIELDS) ?? focusable()[0])?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") navigate(closeHref, { replace: true, preventScrollReset: true });
      if (e.key !== "Tab") return;
      // A modal keeps Tab inside it: from its last control back to its first, and the other way.
      const items = focusable();
      if (items.length === 0) return;
      const first = items[0]!;
      const last = items[items.length - 1]!;
      const inside = box.current?.contains(document.activeElement) ?? false;
      if (e.shiftKey && (!inside || document.activeElement === first)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (!inside || document.activeElement === last)) {
        e.preventDefault();
        first.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      previous?.focus?.();
    };
  }, [open, closeHref, navigate]);
  if (!open) return null;
  return (
    <div className="modal modal-open" role="dialog" aria-modal="true" aria-labelledby={`${name}-title`}>
      <div className="modal-box" ref={box}>
        <div className="mb-4 flex items-start justify-between gap-4">
          <h2 id={`${name}-title`} className="text-lg font-bold">
            {title}
          </h2>
          <Link to={closeHref} replace preventScrollReset className="btn btn-circle btn-ghost btn-sm" aria-label="Close">
            ✕
          </Link>
        </div>
        {children}
      </div>
      <Link to={closeHref} replace preventScrollReset className="modal-backdrop" aria-label="Close dialog" tabIndex={-1} />
    </div>
  );
}
