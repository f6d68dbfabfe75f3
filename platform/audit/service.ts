import type { AuditEntry, AuditPage, AuditQuery } from "@contract/audit";
import type { Deps } from "../context";
import { csvLine } from "../usage/csv";

type Filters = Omit<AuditQuery, "limit" | "before"> & { before?: number; orgId: number | "all" };

function entries(deps: Deps, f: Filters) {
  let q = deps.db.selectFrom("audit_log").selectAll();
  if (f.orgId !== "all") q = q.where("org_id", "=", f.orgId);
  if (f.action) q = q.where("action", "=", f.action);
  // Emails are stored as the provider gave them; the filter matches any case the database folds, and
  // an email typed as shown always: both sides through the same lower(), as SQLite's folds A–Z alone.
  if (f.actor) q = q.where((eb) => eb(eb.fn("lower", ["actor_email"]), "=", eb.fn("lower", [eb.val(f.actor!)])));
  if (f.from !== undefined) q = q.where("created_at", ">=", f.from);
  if (f.to !== undefined) q = q.where("created_at", "<", f.to);
  if (f.before !== undefined) q = q.where("id", "<", f.before);
  // Newest first by id: ids only grow, so the keyset is exact even for entries of the same millisecond.
  return q.orderBy("id", "desc");
}

type Row = Awaited<ReturnType<ReturnType<typeof entries>["execute"]>>[number];

function parse(value: string | null): unknown {
  return value === null ? null : JSON.parse(value);
}

function toEntry(row: Row, names: Map<number, string>): AuditEntry {
  const organizationId = row.org_id === null ? null : Number(row.org_id);
  return {
    id: Number(row.id),
    organizationId,
    organizationName: organizationId === null ? null : (names.get(organizationId) ?? null),
    // An operator command's entry has a name only (no user): it is an actor all the same, not "Platform".
    actor:
      row.actor_id === null && row.actor_email === null && row.actor_name === null
        ? null
        : {
            id: row.actor_id,
            name: row.actor_name,
            email: row.actor_email,
            // Unknown (an entry from before it was recorded) is left out: marked neither way.
            ...(row.actor_email_verified === null ? {} : { emailVerified: row.actor_email_verified === 1 }),
          },
    action: row.action as AuditEntry["action"],
    target: row.target,
    oldValue: parse(row.old_value),
    newValue: parse(row.new_value),
    address: row.address,
    timestamp: new Date(Number(row.created_at)).toISOString(),
  };
}

/** One page of the log, newest first (keyset on the id). `orgId: "all"` is the system organization's view. */
export async function listAudit(deps: Deps, orgId: number | "all", query: AuditQuery & { organization?: number }): Promise<AuditPage> {
  const scope = orgId === "all" && query.organization !== undefined ? query.organization : orgId;
  const rows = await entries(deps, { ...query, orgId: scope })
    .limit(query.limit + 1)
    .execute();
  const names = await organizationNames(deps, rows.slice(0, query.limit));
  const page = rows.slice(0, query.limit).map((row) => toEntry(row, names));
  return { entries: page, nextBefore: rows.length > query.limit ? page[page.length - 1].id : null };
}

/** The names of a page's organizations, in one read (an organization renamed since shows its name now). */
async function organizationNames(deps: Deps, rows: Row[]): Promise<Map<number, string>> {
  const ids = [...new Set(rows.flatMap((row) => (row.org_id === null ? [] : [Number(row.org_id)])))];
  if (ids.length === 0) return new Map();
  const orgs = await deps.db.selectFrom("organizations").select(["id", "name"]).where("id", "in", ids).execute();
  return new Map(orgs.map((o) => [Number(o.id), o.name]));
}

const EXPORT_BATCH = 500;

/**
 * The whole filtered log's CSV lines, newest first, a batch per page read by keyset as the client
 * consumes them (`csvResponse`): a million entries never sit in memory, and no read holds a
 * transaction open between batches.
 */
export async function* exportAudit(deps: Deps, orgId: number | "all", query: Omit<AuditQuery, "limit"> & { organization?: number }): AsyncGenerator<string[]> {
  const scope = orgId === "all" && query.organization !== undefined ? query.organization : orgId;
  let before = query.before;
  for (;;) {
    const rows = await entries(deps, { ...query, orgId: scope, before })
      .limit(EXPORT_BATCH)
      .execute();
    if (rows.length > 0) yield rows.map(auditCsvLine);
    if (rows.length < EXPORT_BATCH) return;
    before = Number(rows[rows.length - 1].id);
  }
}

/** One entry as a CSV line: the shared quoting, and a leading `'` on text a spreadsheet would run (names are users'). */
function auditCsvLine(row: Row): string {
  const number = (n: number | null) => (n === null ? null : { raw: String(Number(n)) });
  return csvLine([
    number(row.id),
    new Date(Number(row.created_at)).toISOString(),
    number(row.org_id),
    row.action,
    row.actor_name,
    row.actor_email,
    row.target,
    row.old_value,
    row.new_value,
    row.address,
    row.actor_email_verified === null ? null : row.actor_email_verified === 1 ? "true" : "false",
  ]);
}
