/** How near the bottom of the message list (px) a user scrolling down must come to follow a streaming reply again. */
export const FOLLOW_SLACK_PX = 48;

/** Where the message list stands after a scroll event. */
export interface ListScroll {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
}

/**
 * Whether the list follows a streaming reply after a scroll event that moved it from `lastTop`.
 *
 * The direction decides, not the distance: a trackpad scrolls up a few pixels at a time, and reading
 * "near the bottom" as following snapped each small step back down at the next token. So any move up
 * stops following, and a move down that reaches the bottom (within the slack) follows again. A move up
 * that ends at the very bottom is the browser clamping a list that got shorter, not the user. Our own
 * scroll to the end can be reported after more of the reply came, away from the bottom: it changes nothing.
 */
export function followsAfterScroll(following: boolean, lastTop: number, list: ListScroll): boolean {
  const gap = list.scrollHeight - list.scrollTop - list.clientHeight;
  if (list.scrollTop < lastTop) return gap <= 1 ? following : false;
  if (list.scrollTop > lastTop && gap <= FOLLOW_SLACK_PX) return true;
  return following;
}
