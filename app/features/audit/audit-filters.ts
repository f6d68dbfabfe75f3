import { AUDIT_ACTIONS } from "@contract/audit";
import type { AuditAction } from "@contract/audit";
import { nextDay, zonedDayStart } from "@contract/zone";
import { queryString } from "~/lib/query-string";

/**
 * The /audit page's filters, all in the URL (shareable, and a plain GET form without JavaScript):
 * `action`, `actor` (an email), `from` and `to` (days, both included, in the viewer's time zone),
 * `organization` (system organization only) and `before` (the page, by keyset).
 */
export interface AuditFilters {
  action: AuditAction | null;
  actor: string;
  from: string;
  to: string;
  organization: number | null;
  before: number | null;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day: 2024-02-30 is none (Date would roll it over to 1 March). */
function day(value: string | null): string {
  if (!value || !DAY.test(value)) return "";
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value ? value : "";
}

function positive(value: string | null): number | null {
  const n = Number(value);
  return value && Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** Whatever the URL says, read leniently: an unknown value is no filter, never an error page. */
export function filtersFrom(params: URLSearchParams): AuditFilters {
  const action = params.get("action");
  return {
    action: action && (AUDIT_ACTIONS as readonly string[]).includes(action) ? (action as AuditAction) : null,
    actor: (params.get("actor") ?? "").trim().slice(0, 320),
    from: day(params.get("from")),
    to: day(params.get("to")),
    organization: positive(params.get("organization")),
    before: positive(params.get("before")),
  };
}

/** The platform's query (epoch milliseconds, `to` excluded) for the filters, read in the viewer's time zone. */
export function platformQuery(filters: AuditFilters, timeZone: string, options: { paged: boolean; system: boolean }): URLSearchParams {
  const query = new URLSearchParams();
  if (filters.action) query.set("action", filters.action);
  if (filters.actor) query.set("actor", filters.actor);
  if (filters.from) query.set("from", String(zonedDayStart(filters.from, timeZone)));
  if (filters.to) query.set("to", String(zonedDayStart(nextDay(filters.to), timeZone)));
  if (options.system && filters.organization) query.set("organization", String(filters.organization));
  if (options.paged && filters.before) query.set("before", String(filters.before));
  return query;
}

/** The page's own URL search for the filters (the CSV link, the next page). */
export function auditSearch(filters: AuditFilters, extra: { before?: number | null } = {}): string {
  const { action, actor, from, to, organization } = filters;
  return queryString({ action, actor, from, to, organization, before: extra.before });
}
