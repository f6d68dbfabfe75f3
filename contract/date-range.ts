/** The refusal of a day range whose end comes before its start (the ledger export; the audit log's filter). */
export const DATE_RANGE_REVERSED = "To is before From: no day is in this range.";
