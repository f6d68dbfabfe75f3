import { sql } from "kysely";
import { setPaymentMode } from "../billing/accounts";
import { microsToDollars } from "../billing/money";
import type { Deps } from "../context";
import type { ModelRow } from "../db/schema";
import type { ModelConfig } from "@contract/models";
import type { OrganizationChange, OrganizationList, OrganizationQuery, OrganizationSummary } from "@contract/system";
import { ORGANIZATION_PAGE_MAX } from "@contract/system";
import { ID_MAX } from "@contract/ids";
import { PlatformError } from "../http/errors";
import { containsPattern, foldForSearch, normalizeOrganizationName } from "../http/names";
import { listModels, modelVersion } from "../models/service";
import { record } from "../audit/record";
import { bySystemAdmin } from "../orgs/admin-lock";

export function toModelConfig(row: ModelRow): ModelConfig {
  return {
    name: row.name,
    displayName: row.display_name,
    provider: row.provider,
    contextSize: Number(row.context_size),
    baseUrl: row.base_url,
    upstreamModel: row.upstream_model,
    hasApiKey: Boolean(row.api_key),
    rateCard: row.rate_card_id
      ? {
          id: row.rate_card_id,
          inputPerMillion: microsToDollars(row.input_micros_per_million),
          outputPerMillion: microsToDollars(row.output_micros_per_million),
        }
      : null,
    status: row.status_override,
    // Absent when unset: the record as it was before issue 11.
    defaultMaxTokens: row.default_max_tokens ?? undefined,
    // Issue 17: the model editor shows and saves these back, so an edit keeps them; absent when unset, like the above.
    alertErrorRatePct: row.alert_error_rate_pct ?? undefined,
    alertTtftMs: row.alert_ttft_ms ?? undefined,
    publishMetrics: row.publish_metrics ? true : undefined,
    version: modelVersion(row),
  };
}

export async function listModelConfigs(deps: Deps): Promise<ModelConfig[]> {
  return (await listModels(deps)).map(toModelConfig);
}

function organizations(deps: Deps) {
  return deps.db
    .selectFrom("organizations as o")
    .leftJoin("billing_accounts as b", "b.org_id", "o.id")
    .select((eb) => [
      "o.id",
      "o.name",
      "o.created_at",
      "b.payment_mode",
      "b.balance_micros",
      eb
        .selectFrom("memberships as m")
        .whereRef("m.org_id", "=", "o.id")
        .select(sql<number>`count(*)`.as("n"))
        .as("member_count"),
    ]);
}

type OrganizationRow = Awaited<ReturnType<ReturnType<typeof organizations>["executeTakeFirstOrThrow"]>>;

function toSummary(row: OrganizationRow): OrganizationSummary {
  return {
    id: Number(row.id),
    name: row.name,
    memberCount: Number(row.member_count ?? 0),
    paymentMode: row.payment_mode ?? "manual",
    balance: microsToDollars(Number(row.balance_micros ?? 0)),
    createdAt: new Date(Number(row.created_at)).toISOString(),
  };
}

export async function listOrganizations(deps: Deps, query: OrganizationQuery = {}): Promise<OrganizationList> {
  let select = organizations(deps).orderBy("o.id", "desc");
  if (query.before !== undefined) select = select.where("o.id", "<", query.before);
  const q = query.q; // trimmed by the contract's schema
  // A number typed is most likely an id: that organization leads the first page, and names holding the digits follow.
  // One past the largest id (a phone number, say) can be no organization's: it is searched as text only.
  const id = q && /^\d{1,10}$/.test(q) && Number(q) >= 1 && Number(q) <= ID_MAX ? Number(q) : null;
  const exact = id !== null && query.before === undefined ? await organizations(deps).where("o.id", "=", id).executeTakeFirst() : undefined;
  if (q) {
    // Both sides folded the one way (name_search is the stored name folded): PostgreSQL's LIKE minds case,
    // SQLite's folds A–Z alone. The typed % and _ are matched as written. An organization an older build
    // created or renamed during a rolling upgrade has no or a stale name_search (nothing rewrites it):
    // its name as the database folds it is matched too.
    const pattern = containsPattern(q);
    select = select.where(sql<boolean>`(o.name_search like ${pattern} escape '\\' or lower(o.name) like ${pattern} escape '\\')`);
    if (id !== null) select = select.where("o.id", "!=", id);
  }
  const lead = exact ? [toSummary(exact)] : [];
  const take = (query.limit ?? ORGANIZATION_PAGE_MAX) - lead.length;
  const rows = await select.limit(take + 1).execute();
  // The next page starts at the first row not shown.
  const next = rows[take];
  return { data: [...lead, ...rows.slice(0, take).map(toSummary)], nextBefore: next ? Number(next.id) + 1 : null };
}

export async function getOrganization(deps: Deps, id: number): Promise<OrganizationSummary> {
  const row = await organizations(deps).where("o.id", "=", id).executeTakeFirst();
  if (!row) throw new PlatformError(404, "Organization not found");
  return toSummary(row);
}

/**
 * Renames an organization and/or sets its payment mode (the billing service's own operator setting),
 * in one transaction that first checks its caller is still a system admin.
 */
export async function updateOrganization(deps: Deps, id: number, change: OrganizationChange, actorId: number): Promise<OrganizationSummary> {
  await bySystemAdmin(deps, actorId, async (trx) => {
    const before = await getOrganization({ ...deps, db: trx }, id);
    if (change.name !== undefined) {
      const name = normalizeOrganizationName(change.name);
      await trx
        .updateTable("organizations")
        .set({ name, name_search: foldForSearch(name) })
        .where("id", "=", id)
        .execute();
      if (name !== before.name) await record(deps, { orgId: id, action: "organization.renamed", old: { name: before.name }, new: { name } }, trx);
    }
    if (change.paymentMode !== undefined) await setPaymentMode(deps, id, change.paymentMode, trx);
  });
  return getOrganization(deps, id);
}
