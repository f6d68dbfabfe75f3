import type { ReactNode } from "react";

/**
 * A table that scrolls sideways inside its card when it is wider (row confirmations are popovers, which
 * a scroll container does not clip). The region is a keyboard stop, so the hidden columns are
 * reachable without a mouse.
 */
export function TableRegion({ labelledBy, children }: { labelledBy: string; children: ReactNode }) {
  return (
    <div className="table-region" role="region" aria-labelledby={labelledBy} tabIndex={0}>
      {children}
    </div>
  );
}

/**
 * A table's last column (its actions) pinned to the right of the scroll area on wide screens, where a
 * wide table scrolls inside its card: the actions stay in view, the other columns scroll under them.
 */
export const PINNED_END_CELL = "lg:sticky lg:right-0 lg:bg-base-100 lg:shadow-[-8px_0_8px_-8px_rgb(0_0_0/0.15)]";
