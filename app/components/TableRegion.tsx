import type { ReactNode } from "react";

/**
 * A table that scrolls sideways inside its card on narrow screens (below lg; on wide screens the
 * row confirmations would be clipped by a scroll container). The region is a keyboard stop, so the
 * hidden columns are reachable without a mouse.
 */
export function TableRegion({ labelledBy, children }: { labelledBy: string; children: ReactNode }) {
  return (
    <div className="table-region" role="region" aria-labelledby={labelledBy} tabIndex={0}>
      {children}
    </div>
  );
}
