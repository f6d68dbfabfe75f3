import { useLocation } from "@remix-run/react";
import type { ReactNode, RefObject } from "react";
import { createContext, useContext, useEffect, useMemo, useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { tabStops, wrapTab } from "~/lib/focus-trap";

/** The id of the drawer's checkbox: the header's menu button is a label for it. */
export const NAV_DRAWER_ID = "nav-drawer";

/** The drawer's panel, which the header's menu button controls. */
const NAV_DRAWER_SIDE_ID = "nav-drawer-side";

interface NavDrawer {
  open: boolean;
  toggle: () => void;
  button: RefObject<HTMLButtonElement>;
  controls: string;
}

const NavDrawerContext = createContext<NavDrawer | null>(null);

/**
 * The drawer's state for the header's menu button, once hydrated (null before: the button is then a
 * label of the drawer's checkbox, which works without JavaScript).
 */
export function useNavDrawer(): NavDrawer | null {
  return useContext(NavDrawerContext);
}

/** Tailwind's `lg`: from here the sidebar stays beside the content and is no drawer. */
const BESIDE = "(min-width: 64rem)";

/**
 * The signed-in shell (SPEC §2, issue 14): a skip link, the 260 px sidebar beside the content from
 * the `lg` breakpoint, and below it a daisyUI checkbox drawer, so the menu opens and closes without
 * JavaScript too. Once hydrated, Escape and any navigation close it as well, and the open drawer is
 * modal (WCAG 2.4.11): focus moves into it, Tab stays in it, and the page it covers is inert. Closed
 * any way, it gives focus back to the menu button (WCAG 2.4.3).
 */
export function SidebarLayout({ sidebar, header, children }: { sidebar: ReactNode; header: ReactNode; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLInputElement>(null);
  const side = useRef<HTMLDivElement>(null);
  const behind = useRef<HTMLDivElement>(null);
  const skip = useRef<HTMLAnchorElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const hydrated = useHydrated();
  const drawer = useMemo<NavDrawer>(() => ({ open, toggle: () => setOpen((was) => !was), button, controls: NAV_DRAWER_SIDE_ID }), [open]);
  const location = useLocation();

  // A link in the drawer navigates: the drawer has done its job. Set the DOM too, in case it was
  // ticked before hydration (React then still thinks it is closed).
  useEffect(() => {
    setOpen(false);
    if (toggle.current) toggle.current.checked = false;
  }, [location.pathname, location.search]);

  useEffect(() => {
    if (!open) return;
    const beside = window.matchMedia(BESIDE);
    const covered = [behind.current, skip.current].filter((el) => el !== null);
    const [panel, checkbox, menu] = [side.current, toggle.current, button.current];
    // Only while it covers the page: a window widened past `lg` shows the sidebar beside the content.
    const cover = () => covered.forEach((el) => (el.inert = !beside.matches));
    cover();
    beside.addEventListener("change", cover);
    // Into the drawer, once it can take focus: daisyUI shows it after a short delay (its transition).
    let frame = 0;
    const started = performance.now();
    const focusIn = () => {
      const first = side.current ? tabStops(side.current)[0] : undefined;
      if (beside.matches || !first) return;
      first.focus();
      if (document.activeElement !== first && performance.now() - started < 1000) frame = requestAnimationFrame(focusIn);
    };
    focusIn();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Tab" && !beside.matches && side.current) wrapTab(e, side.current);
      if (e.key !== "Escape") return;
      setOpen(false);
      // Back to the menu button (in the page, inert until the effect's cleanup: free it first).
      if (behind.current) behind.current.inert = false;
      (button.current ?? toggle.current)?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("keydown", onKey);
      beside.removeEventListener("change", cover);
      covered.forEach((el) => (el.inert = false));
      // However it closed (Escape, the overlay, a link in it, the menu button), focus that was in the
      // drawer goes back to the menu button. The overlay is a label of the checkbox: a click on it
      // focuses that hidden checkbox, and a link clicked in it is hidden with the drawer.
      const focused = document.activeElement;
      const lost = focused === null || focused === document.body || focused === checkbox || (panel?.contains(focused) ?? false);
      if (lost && !beside.matches) menu?.focus();
    };
  }, [open]);

  return (
    <>
      <a ref={skip} href="#main" className="skip-link btn btn-primary">
        Skip to content
      </a>
      <div className="drawer h-dvh lg:drawer-open">
        <input
          id={NAV_DRAWER_ID}
          ref={toggle}
          type="checkbox"
          className="drawer-toggle"
          aria-label="Navigation menu"
          // Hydrated, the header's menu button (a button with aria-expanded) drives it: the checkbox
          // only holds the state daisyUI's drawer reads, out of the Tab order and the accessibility tree.
          tabIndex={hydrated ? -1 : undefined}
          aria-hidden={hydrated || undefined}
          checked={open}
          onChange={(e) => setOpen(e.currentTarget.checked)}
        />
        {/* The sidebar before the page in the DOM, as on screen, so Tab meets it first (the grid places both). */}
        <div ref={side} id={NAV_DRAWER_SIDE_ID} className="drawer-side z-40">
          <label htmlFor={NAV_DRAWER_ID} className="drawer-overlay lg:hidden">
            <span className="sr-only">Close navigation menu</span>
          </label>
          {sidebar}
        </div>
        <div ref={behind} className="drawer-content flex h-dvh min-w-0 flex-col">
          <NavDrawerContext.Provider value={hydrated ? drawer : null}>{header}</NavDrawerContext.Provider>
          <main id="main" tabIndex={-1} className="flex-1 overflow-y-auto p-4 outline-none sm:p-6">
            <div className="mx-auto w-full max-w-content">{children}</div>
          </main>
        </div>
      </div>
    </>
  );
}
