import type { CSSProperties, HTMLAttributes, ReactNode } from "react";
import { createContext, useContext, useEffect, useId, useRef } from "react";

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
  role: "dialog" | "alertdialog" | undefined;
  /** The accessible name of the popover (dialogs). */
  label?: string;
  className?: string;
  /** Focus the popover's first button when it opens (a question's Cancel, so Enter cannot confirm by surprise). */
  focusFirstButton?: boolean;
  /** A request the popover started is running: it closes when the request is done. */
  busy?: boolean;
  children: ReactNode;
}

/**
 * A button that opens a panel anchored under it, in the browser's top layer (the Popover API): the panel
 * is never clipped by a table's scroll area or covered by a toast, Escape and a click elsewhere close
 * it, focus goes back to the button, and all of it works before JavaScript loads. Where anchor
 * positioning is missing the panel shows in the middle of the screen instead (daisyUI's fallback).
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
  children,
}: PopoverProps) {
  const id = `popover-${useId().replace(/[^a-zA-Z0-9_-]/g, "")}`;
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
  const anchor = `--${id}`;
  return (
    <>
      <button type="button" popovertarget={id} className={triggerClassName} aria-label={triggerLabel} style={{ anchorName: anchor } as CSSProperties}>
        {trigger}
      </button>
      <div
        ref={ref}
        id={id}
        popover="auto"
        role={role}
        aria-label={label}
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
