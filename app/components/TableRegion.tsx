import type { ReactNode } from "react";

/**
 * A table that scrolls sideways inside its card when it is wider (row confirmations are popovers, which
 * a scroll container does not clip). The region is a keyboard stop, so the hidden columns are
 * reachable without a mouse (WCAG 2.1.1). It is named for its table ("Members table"), not by its
 * card's heading: the card is a region of that name already, and two landmarks of one name are one
 * too many in a screen reader's list.
 */
export function TableRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-region" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/**
 * A table's last column (its actions) pinned to the right of the scroll area on wide screens, where a
 * wide table scrolls inside its card: the actions stay in view, the other columns scroll under them.
 * Its shadow is the text's colour, faint, as the scroll shadows are (black could not be seen on the dark theme).
 */
export const PINNED_END_CELL = "lg:sticky lg:right-0 lg:bg-base-100 lg:shadow-[-8px_0_8px_-8px_color-mix(in_oklab,var(--color-base-content)_15%,transparent)]";
