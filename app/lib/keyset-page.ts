/**
 * A keyset page as a list screen shows it (the ledger, the members): the rows, and the row ids to
 * page on from, or null where there is no page that way.
 */
export interface KeysetPage<T> {
  rows: T[];
  /** The last row's id, when a next page exists. */
  next: number | null;
  /** The first row's id, when a previous page exists. */
  previous: number | null;
}

/** How the rows were asked for: the first page, the page after a cursor, or the page before one. */
export type PageFrom = "start" | "forward" | "backward";

/** How a page was asked for, from its two cursors: forward past the first, else backward before the second. */
export function pageFrom(forward: number | undefined, backward: number | undefined): PageFrom {
  return forward !== undefined ? "forward" : backward !== undefined ? "backward" : "start";
}

/**
 * A positive integer row id from the URL (`?before=`, `?after=`), written in digits as the platform
 * reads it (decision 0140), else undefined: the first page. Past 2^53 it would be sent back as `1e+25`.
 */
export function pageCursor(value: string | null): number | undefined {
  const n = Number(value);
  return value && /^\d+$/.test(value) && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/**
 * The page from up to `size + 1` rows in the order shown, asked for with a limit of `size + 1`: the
 * extra row says another page exists that way (at the end going forward, at the start going backward).
 */
export function keysetPage<T extends { id: number }>(fetched: T[], from: PageFrom, size: number): KeysetPage<T> {
  let rows = fetched;
  let hasNext = from === "backward";
  let hasPrevious = from === "forward";
  if (rows.length > size) {
    if (from === "backward") {
      hasPrevious = true;
      rows = rows.slice(rows.length - size);
    } else {
      hasNext = true;
      rows = rows.slice(0, size);
    }
  }
  return { rows, next: hasNext && rows.length ? rows[rows.length - 1].id : null, previous: hasPrevious && rows.length ? rows[0].id : null };
}
