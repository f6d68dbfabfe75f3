import type { CSSProperties, HTMLAttributes, MouseEvent, ReactNode } from "react";
import { createContext, useContext, useEffect, useId, useRef } from "react";
import { wrapTab } from "~/lib/focus-trap";

// @types/react 18 predates the popover attributes; React 18 passes them through as written. The merged
// interfaces must repeat React's type parameter, unused here.
/* eslint-disable @typescript-eslint/no-unused-vars */
declare module "react" {
  interface HTMLAttributes<T> {
    popover?: "auto" | "manual";
  }
  interface ButtonHTMLAttributes<T> {
    popovertarget?: string;
    popovertargetaction?: "toggle" | "show" | "hide";
  }
}
/* eslint-enable @typescript-eslint/no-unused-vars */

const PopoverId = createContext<string | undefined>(undefined);

interface PopoverProps {
  /** What the trigger button shows. */
  trigger: ReactNode;
  triggerClassName: string;
  triggerLabel?: string;
  /** An `alertdialog` (a question) is modal: Tab stays inside it while it is open. The others close when focus leaves them. */
  role: "dialog" | "alertdialog" | undefined;
  /** The accessible name of the popover (dialogs). */
  label?: string;
  className?: string;
  /** Focus the popover's first button when it opens (a question's Cancel, so Enter cannot confirm by surprise). */
  focusFirstButton?: boolean;
  /** A request the popover started is running: it closes when the request is done. */
  busy?: boolean;
  /** Runs before the panel opens; `preventDefault()` keeps it closed. */
  onTriggerClick?: (event: MouseEvent<HTMLButtonElement>) => void;
  /** The trigger can't open the panel now (it stays where it is, so focus and layout don't jump). */
  triggerDisabled?: boolean;
  /** The panel's id, for a popover that is one of a kind on every page (kept markup takes no generated ids). */
  id?: string;
  children: ReactNode;
}

/**
 * A button that opens a panel anchored under it, in the browser's top layer (the Popover API): the panel
 * is never clipped by a table's scroll area or covered by a toast, Escape and a click elsewhere close
 * it, focus goes back to the button, and all of it works before JavaScript loads. Where anchor
 * positioning is missing the panel shows in the middle of the screen instead (daisyUI's fallback).
 * Focus never lands on what the open panel covers (WCAG 2.4.11): a question keeps Tab inside it until
 * it is answered or dismissed, and any other panel closes once focus leaves it and its button.
 */
export function Popover({
  trigger,
  triggerClassName,
  triggerLabel,
  role,
  label,
  className = "",
  focusFirstButton = false,
  busy = false,
  onTriggerClick,
  triggerDisabled,
  id: fixedId,
  children,
}: PopoverProps) {
  const generated = `popover-${useId().replace(/[^a-zA-Z0-9_-]/g, "")}`;
  const id = fixedId ?? generated;
  const ref = useRef<HTMLDivElement>(null);
  const wasBusy = useRef(false);
  useEffect(() => {
    const panel = ref.current;
    if (wasBusy.current && !busy && panel?.matches(":popover-open")) panel.hidePopover();
    wasBusy.current = busy;
  }, [busy]);
  useEffect(() => {
    const panel = ref.current;
    if (!panel || !focusFirstButton) return;
    const onToggle = (event: Event) => {
      if ((event as ToggleEvent).newState === "open") panel.querySelector<HTMLElement>("button:not([disabled])")?.focus();
    };
    panel.addEventListener("toggle", onToggle);
    return () => panel.removeEventListener("toggle", onToggle);
  }, [focusFirstButton]);
  const opener = useRef<HTMLButtonElement>(null);
  const modal = role === "alertdialog";
  useEffect(() => {
    const panel = ref.current;
    const button = opener.current;
    if (!panel || !button) return;
    const onKey = (event: KeyboardEvent) => {
      if (panel.matches(":popover-open")) wrapTab(event, panel);
    };
    // Focus moving to another element than the panel's or its button's (Tab, a click): the panel is done.
    // A null relatedTarget (the window lost focus, a pressed button was disabled) leaves it open.
    const onFocusOut = (event: FocusEvent) => {
      const to = event.relatedTarget;
      if (!(to instanceof Node) || panel.contains(to) || button.contains(to)) return;
      if (panel.matches(":popover-open")) panel.hidePopover();
    };
    if (modal) {
      panel.addEventListener("keydown", onKey);
      return () => panel.removeEventListener("keydown", onKey);
    }
    panel.addEventListener("focusout", onFocusOut);
    button.addEventListener("focusout", onFocusOut);
    return () => {
      panel.removeEventListener("focusout", onFocusOut);
      button.removeEventListener("focusout", onFocusOut);
    };
  }, [modal]);
  const anchor = `--${id}`;
  return (
    <>
      <button
        ref={opener}
        type="button"
        popovertarget={id}
        className={triggerClassName}
        aria-label={triggerLabel}
        disabled={triggerDisabled}
        onClick={onTriggerClick}
        style={{ anchorName: anchor } as CSSProperties}
      >
        {trigger}
      </button>
      <div
        ref={ref}
        id={id}
        popover="auto"
        role={role}
        aria-label={label}
        aria-modal={modal || undefined}
        className={`dropdown dropdown-end anchored-popover ${className}`.trim()}
        style={{ positionAnchor: anchor } as CSSProperties}
      >
        <PopoverId.Provider value={id}>{children}</PopoverId.Provider>
      </div>
    </>
  );
}

/** A button inside a popover that closes it (works before JavaScript loads). */
export function PopoverClose({ children, ...props }: HTMLAttributes<HTMLButtonElement> & { disabled?: boolean }) {
  const id = useContext(PopoverId);
  return (
    <button type="button" popovertarget={id} popovertargetaction="hide" {...props}>
      {children}
    </button>
  );
}
