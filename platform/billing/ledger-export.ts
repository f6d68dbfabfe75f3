import { DATE_RANGE_REVERSED } from "@contract/date-range";
import { LEDGER_CSV_HEADER } from "@contract/usage";
import type { LedgerExportQuery } from "@contract/usage";
import type { Deps } from "../context";
import { PlatformError } from "../http/errors";
import { CSV_PAGE, csvLine, csvResponse, formatMicros } from "../usage/csv";
import { knownZone, nextDay, zonedDayStart, zonedIso } from "@contract/zone";

/**
 * The ledger as CSV (issue 16): every row of a range of local days in the viewer's time zone (the rule
 * of the screen), oldest first, with the exact change in dollars to the micro-dollar. Keyset pages on
 * the `(org_id, id)` index; without a range, the whole ledger, whose changes sum to the balance.
 */
export async function ledgerCsv(deps: Deps, orgId: number, query: LedgerExportQuery): Promise<Response> {
  const tz = knownZone(query.tz);
  const since = query.from ? zonedDayStart(query.from, tz) : null;
  // The range ends where the day after `to` starts (a local day may last 23 or 25 hours).
  const end = query.to ? zonedDayStart(nextDay(query.to), tz) : null;
  if (since !== null && end !== null && end <= since) throw new PlatformError(400, DATE_RANGE_REVERSED);

  async function* pages(): AsyncGenerator<string[]> {
    let after = 0;
    for (;;) {
      let q = deps.db
        .selectFrom("ledger_entries")
        .select(["id", "created_at", "description", "model", "rate_card_id", "change_micros"])
        .where("org_id", "=", orgId)
        .where("id", ">", after);
      if (since !== null) q = q.where("created_at", ">=", since);
      if (end !== null) q = q.where("created_at", "<", end);
      const rows = await q.orderBy("id").limit(CSV_PAGE).execute();
      if (rows.length === 0) return;
      yield rows.map((r) =>
        csvLine([
          { raw: String(r.id) },
          { raw: zonedIso(Number(r.created_at), tz) },
          r.description,
          r.model,
          r.rate_card_id,
          { raw: formatMicros(r.change_micros) },
        ]),
      );
      if (rows.length < CSV_PAGE) return;
      after = rows[rows.length - 1].id;
    }
  }

  const name = `ledger${query.from ? `-from-${query.from}` : ""}${query.to ? `-to-${query.to}` : ""}.csv`;
  return csvResponse(name, LEDGER_CSV_HEADER, pages());
}
