import { useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useEffect, useRef, useState } from "react";

/** The id of the drawer's checkbox: the header's menu button is a label for it. */
export const NAV_DRAWER_ID = "nav-drawer";

/**
 * The signed-in shell (SPEC §2, issue 14): a skip link, the 260 px sidebar beside the content from
 * the `lg` breakpoint, and below it a daisyUI checkbox drawer, so the menu opens and closes without
 * JavaScript too. Once hydrated, Escape and any navigation close it as well.
 */
export function SidebarLayout({ sidebar, header, children }: { sidebar: ReactNode; header: ReactNode; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLInputElement>(null);
  const location = useLocation();

  // A link in the drawer navigates: the drawer has done its job. Set the DOM too, in case it was
  // ticked before hydration (React then still thinks it is closed).
  useEffect(() => {
    setOpen(false);
    if (toggle.current) toggle.current.checked = false;
  }, [location.pathname, location.search]);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      toggle.current?.focus(); // its focus ring shows on the menu button
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);

  return (
    <>
      <a href="#main" className="skip-link btn btn-primary">
        Skip to content
      </a>
      <div className="drawer h-dvh lg:drawer-open">
        <input
          id={NAV_DRAWER_ID}
          ref={toggle}
          type="checkbox"
          className="drawer-toggle"
          aria-label="Navigation menu"
          checked={open}
          onChange={(e) => setOpen(e.currentTarget.checked)}
        />
        {/* The sidebar before the page in the DOM, as on screen, so Tab meets it first (the grid places both). */}
        <div className="drawer-side z-40">
          <label htmlFor={NAV_DRAWER_ID} className="drawer-overlay lg:hidden">
            <span className="sr-only">Close navigation menu</span>
          </label>
          {sidebar}
        </div>
        <div className="drawer-content flex h-dvh min-w-0 flex-col">
          {header}
          <main id="main" tabIndex={-1} className="flex-1 overflow-y-auto p-4 outline-none sm:p-6">
            <div className="mx-auto w-full max-w-content">{children}</div>
          </main>
        </div>
      </div>
    </>
  );
}
