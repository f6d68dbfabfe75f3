import type { KeyboardEvent } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import type { RovingMoves } from "./roving-focus";
import { moveFocus } from "./roving-focus";

const MOVES: RovingMoves = {
  ArrowRight: (i, n) => (i + 1) % n,
  ArrowLeft: (i, n) => (i - 1 + n) % n,
  Home: () => 0,
  End: (_i, n) => n - 1,
};

/**
 * The WAI-ARIA tabs pattern for a row of `role="tab"` buttons or links: one Tab stop (the selected
 * tab), the arrow keys, Home and End move along the row, and the tab reached is selected at once
 * (each of ours switches without a server call). Before hydration every tab keeps its Tab stop: the
 * arrow keys need the script.
 */
export function useTabList() {
  const hydrated = useHydrated();
  return {
    listProps: {
      role: "tablist",
      onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
        moveFocus(event, '[role="tab"]:not(:disabled)', MOVES)?.click();
      },
    },
    tabProps: (selected: boolean) => ({
      role: "tab",
      "aria-selected": selected,
      tabIndex: hydrated && !selected ? -1 : undefined,
    }),
  } as const;
}
