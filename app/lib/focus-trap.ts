const FOCUSABLE = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex]';

/** The elements inside `container` that Tab stops on, in order (enabled, shown, not taken out with tabindex -1). */
export function tabStops(container: Element): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el.tabIndex >= 0 && !el.matches(":disabled") && !el.closest("[inert]") && el.getClientRects().length > 0,
  );
}

/**
 * Keeps Tab and Shift+Tab inside `container` (a modal: WCAG 2.4.3, 2.4.11): from its last stop back to
 * its first and the other way, and from anywhere outside it to its first (or last) stop. Call it from a
 * keydown listener; it does nothing for other keys.
 */
export function wrapTab(event: KeyboardEvent, container: Element): void {
  if (event.key !== "Tab" || event.altKey || event.ctrlKey || event.metaKey) return;
  const stops = tabStops(container);
  if (stops.length === 0) return;
  const first = stops[0]!;
  const last = stops[stops.length - 1]!;
  const active = document.activeElement;
  const inside = active !== null && container.contains(active);
  if (event.shiftKey && (!inside || active === first)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (!inside || active === last)) {
    event.preventDefault();
    first.focus();
  }
}
