import type { KeyboardEvent } from "react";

/** Where a key moves focus in a list of `count` items, from item `index`. */
export type RovingMoves = Record<string, (index: number, count: number) => number>;

/**
 * One Tab stop for a list (WAI-ARIA tabs, listboxes): the key pressed moves focus from the item that
 * has it to another of the list's `items` (a selector), as `moves` says. The item reached, or null when
 * the key is not a move here.
 */
export function moveFocus(event: KeyboardEvent<HTMLElement>, items: string, moves: RovingMoves): HTMLElement | null {
  const move = moves[event.key];
  if (!move || event.altKey || event.ctrlKey || event.metaKey) return null;
  const all = [...event.currentTarget.querySelectorAll<HTMLElement>(items)];
  const from = all.indexOf(event.target as HTMLElement);
  if (from < 0) return null;
  event.preventDefault();
  const to = all[move(from, all.length)] ?? null;
  to?.focus();
  return to;
}
