import type { LedgerRow } from "~/platform/billing";

/** One page of the ledger as the billing screen shows it; null rows when the ledger failed to load. */
export interface LedgerPage {
  rows: LedgerRow[] | null;
  olderCursor: number | null;
  newerCursor: number | null;
}

export const LEDGER_PAGE_SIZE = 50;

/** A positive integer row id from the URL (`?before=`, `?after=`), else undefined. */
export function ledgerCursor(value: string | null): number | undefined {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * The page from up to `size + 1` rows, newest first, fetched before or after a cursor: the extra row
 * says whether another page exists in that direction.
 */
export function ledgerPage(fetched: LedgerRow[], cursor: { before?: number; after?: number }, size = LEDGER_PAGE_SIZE): LedgerPage {
  let rows = fetched;
  let hasOlder = false;
  let hasNewer = cursor.before !== undefined;
  if (cursor.after !== undefined) {
    // Rows newer than `after`, newest first: one extra at the top means a newer page exists.
    hasOlder = true;
    if (rows.length > size) {
      hasNewer = true;
      rows = rows.slice(rows.length - size);
    }
  } else if (rows.length > size) {
    hasOlder = true;
    rows = rows.slice(0, size);
  }
  return { rows, olderCursor: hasOlder && rows.length ? rows[rows.length - 1].id : null, newerCursor: hasNewer && rows.length ? rows[0].id : null };
}
