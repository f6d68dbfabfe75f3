import { USAGE_CSV_HEADER } from "@contract/usage";
import type { UsageExportQuery } from "@contract/usage";
import type { Deps } from "../context";
import { CSV_PAGE, csvLine, csvResponse, formatMicros } from "./csv";
import { DAY_MS, resolveFilters, utcDate } from "./service";

/**
 * The current /usage view as CSV: one line per chat completion of the period and filters (ending on `to`
 * when given, the last day the screen showed), oldest first,
 * times in UTC as the screen's days are. Read in keyset pages on `(created_at, id)` (the
 * `(org_id, created_at)` index), so the export costs one page of memory at any size; its cost column
 * sums to the screen's total.
 */
export async function usageCsv(deps: Deps, orgId: number, query: UsageExportQuery): Promise<Response> {
  const filters = await resolveFilters(deps, orgId, query);
  // The window the screen showed (its last day), never past today.
  const today = Math.min(Math.floor(deps.now() / DAY_MS), query.to ? Date.parse(`${query.to}T00:00:00Z`) / DAY_MS : Infinity);
  const since = (today - query.days + 1) * DAY_MS;
  const until = (today + 1) * DAY_MS;

  async function* pages(): AsyncGenerator<string[]> {
    let after: { at: number; id: number } | null = null;
    for (;;) {
      // The index range starts at the cursor, not at `since`: otherwise every page rescans all the rows
      // before it (a quadratic export, blocking the event loop on SQLite). Ties are the keyset's below.
      const from: number = after ? after.at : since;
      let q = deps.db
        .selectFrom("chat_usage as u")
        .leftJoin("api_tokens as t", (j) => j.onRef("t.id", "=", "u.token_id").on("t.org_id", "=", orgId))
        .leftJoin("users as m", "m.id", "u.user_id")
        .select([
          "u.id",
          "u.created_at",
          "u.receipt_id",
          "u.model",
          "u.token_id",
          "t.public_id",
          "m.name",
          "u.prompt_tokens",
          "u.completion_tokens",
          "u.reasoning_tokens",
          "u.cost_micros",
          "u.estimated",
          "u.outcome",
        ])
        .where("u.org_id", "=", orgId)
        .where("u.created_at", ">=", from)
        .where("u.created_at", "<", until);
      if (filters.model !== undefined) q = q.where("u.model", "=", filters.model);
      if (filters.tokenId !== undefined) q = q.where("u.token_id", "=", filters.tokenId);
      if (filters.userId !== undefined) q = q.where("u.token_id", "is", null).where("u.user_id", "=", filters.userId);
      if (after) {
        const { at, id } = after;
        q = q.where((eb) => eb.or([eb("u.created_at", ">", at), eb.and([eb("u.created_at", "=", at), eb("u.id", ">", id)])]));
      }
      const rows = await q.orderBy("u.created_at").orderBy("u.id").limit(CSV_PAGE).execute();
      if (rows.length === 0) return;
      yield rows.map((r) =>
        csvLine([
          { raw: new Date(Number(r.created_at)).toISOString() },
          r.receipt_id,
          r.model,
          r.token_id === null ? "console" : "api",
          r.public_id,
          r.token_id === null ? r.name : null,
          { raw: String(r.prompt_tokens) },
          { raw: String(r.completion_tokens) },
          { raw: String(r.reasoning_tokens) },
          { raw: formatMicros(r.cost_micros) },
          { raw: Number(r.estimated) ? "true" : "false" },
          r.outcome,
        ]),
      );
      if (rows.length < CSV_PAGE) return;
      const last = rows[rows.length - 1];
      after = { at: Number(last.created_at), id: last.id };
    }
  }

  const name = [`usage-${utcDate(today - query.days + 1)}-to-${utcDate(today)}`, query.model, query.token, query.member ? `member-${query.member}` : undefined]
    .filter(Boolean)
    .join("-")
    .replace(/[^A-Za-z0-9._-]/g, "_");
  return csvResponse(`${name}.csv`, USAGE_CSV_HEADER, pages());
}
