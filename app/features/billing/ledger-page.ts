import type { LedgerRow } from "~/platform/billing";
import { keysetPage, pageFrom } from "~/lib/keyset-page";

/** One page of the ledger as the billing screen shows it; null rows when the ledger failed to load. */
export interface LedgerPage {
  rows: LedgerRow[] | null;
  olderCursor: number | null;
  newerCursor: number | null;
}

export const LEDGER_PAGE_SIZE = 50;

/**
 * The page from up to `size + 1` rows, newest first, fetched before a cursor (older: the next page)
 * or after one (newer: the previous page).
 */
export function ledgerPage(fetched: LedgerRow[], cursor: { before?: number; after?: number }, size = LEDGER_PAGE_SIZE): LedgerPage {
  // Newest first: older rows (`before`) are the next page, newer ones (`after`) the previous.
  const { rows, next, previous } = keysetPage(fetched, pageFrom(cursor.before, cursor.after), size);
  return { rows, olderCursor: next, newerCursor: previous };
}
