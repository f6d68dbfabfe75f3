import { Link, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import type { MouseEvent, ReactNode } from "react";
import { useCallback, useEffect, useRef } from "react";

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
  // A history entry of its own, so Back closes the dialog rather than leave the page (R5 of 0131).
  return (
    <Link to={href} className={className} preventScrollReset state={OPENED_HERE}>
      {children}
    </Link>
  );
}

/** The history state of a dialog a `DialogLink` opened on its page (one reached by its URL has none). */
const OPENED_HERE = { dialogOpenedHere: true };

/**
 * How a dialog closes: back to the entry its link came from when a `DialogLink` opened it (so Back and
 * the close button agree, and Forward opens it again), else to the page's URL without it, in place of
 * the dialog's (opened by its URL, or without JavaScript, where the link is followed).
 */
function useCloseDialog(): { href: string; close: () => void; onClick: (event: MouseEvent<HTMLAnchorElement>) => void } {
  const href = useDialogHref(null);
  const navigate = useNavigate();
  const location = useLocation();
  const openedHere = (location.state as typeof OPENED_HERE | null)?.dialogOpenedHere === true;
  const close = useCallback(() => {
    if (openedHere) navigate(-1);
    else navigate(href, { replace: true, preventScrollReset: true });
  }, [openedHere, navigate, href]);
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!openedHere || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(-1);
  };
  return { href, close, onClick };
}

/**
 * Closes the open dialog, for content that sees a key the page does not: Stripe's card fields live in
 * an iframe of js.stripe.com, whose Escape never reaches the dialog's listener on `window`.
 */
export function useDialogClose(): () => void {
  return useCloseDialog().close;
}

/** A link that closes the open dialog (its ✕, its backdrop, a Cancel), as Escape does. */
export function DialogCloseLink({ className, children, ...rest }: { className?: string; children?: ReactNode; "aria-label"?: string; tabIndex?: number }) {
  const { href, onClick } = useCloseDialog();
  return (
    <Link to={href} replace preventScrollReset className={className} onClick={onClick} {...rest}>
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
  const { close } = useCloseDialog();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    const focusable = () => [...(box.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])].filter((el) => !el.hasAttribute("disabled"));
    // The first field (not the close button, and never a hidden input), else whatever comes first.
    (box.current?.querySelector<HTMLElement>(FIELDS) ?? focusable()[0])?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") close();
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
  }, [open, close]);
  if (!open) return null;
  return (
    <div className="modal modal-open" role="dialog" aria-modal="true" aria-labelledby={`${name}-title`}>
      <div className="modal-box" ref={box}>
        <div className="mb-4 flex items-start justify-between gap-4">
          <h2 id={`${name}-title`} className="text-lg font-bold">
            {title}
          </h2>
          <DialogCloseLink className="btn btn-circle btn-ghost btn-sm" aria-label="Close">
            ✕
          </DialogCloseLink>
        </div>
        {children}
      </div>
      <DialogCloseLink className="modal-backdrop" aria-label="Close dialog" tabIndex={-1} />
    </div>
  );
}
