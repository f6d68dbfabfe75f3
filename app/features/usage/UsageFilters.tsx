import { Form, Link, useNavigate } from "@remix-run/react";
import { Download, FilterX } from "lucide-react";
import type { ChangeEvent } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { useFormValuesFrom } from "~/lib/use-form-values-from";
import { withPageOrganization } from "~/features/auth/page-organization";
import { usePageOrganizationId } from "~/features/auth/PageOrganizationField";
import type { ChartMetric, UsageFilterValues, UsagePeriod } from "./format";
import { MEMBER_SEARCH_MAX } from "@contract/team";
import { hasFilters, MEMBER_CHOICES, usageCsvHref, usageSearch } from "./format";

export interface FilterOptions {
  models: string[];
  tokens: { publicId: string; revoked: boolean }[];
  members: { id: number; name: string }[];
  /**
   * Set when the members are chosen from a search (more than MEMBER_CHOICES, or a search in the URL):
   * what was searched, how many of `members` match it, and whether more match than it holds.
   */
  memberSearch?: { query: string; matched: number; more: boolean };
}

interface UsageFiltersProps {
  days: UsagePeriod;
  metric: ChartMetric;
  filters: UsageFilterValues;
  options: FilterOptions;
  /** The last day the report on screen shows (`YYYY-MM-DD`), which the CSV keeps; absent when it failed to load. */
  lastDay?: string;
}

type Chosen = Record<keyof UsageFilterValues, string>;

const chosenOf = (filters: UsageFilterValues): Chosen => ({ model: filters.model ?? "", token: filters.token ?? "", member: String(filters.member ?? "") });

/**
 * The filters of /usage as a GET form: without JavaScript, Apply loads `/usage?days=…&model=…`; once
 * hydrated, a change navigates to the same URL at once (blank filters left out) and Apply steps aside
 * (DESIGN §6). Every view is a URL, so it can be bookmarked and shared; the CSV link exports that view.
 * The selects stay mounted through a change, so the one in use keeps the keyboard focus.
 */
export function UsageFilters({ days, metric, filters, options, lastDay }: UsageFiltersProps) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const pageOrganization = usePageOrganizationId();
  // The selects show a choice at once and while its view loads, then whatever the loaded view is filtered
  // by, also when a link (Clear filters, Back) changed it; a choice made before hydration is kept.
  const search = options.memberSearch;
  const formRef = useFormValuesFrom(filters, (loaded) => ({ ...chosenOf(loaded), who: search?.query ?? "" }));
  const shown = chosenOf(filters);
  const go = (form: HTMLFormElement) => {
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? "").trim() || undefined;
    const member = Number(text("member"));
    const chosen = { model: text("model"), token: text("token"), member: member > 0 ? member : undefined };
    navigate(usageSearch(days, metric, chosen, text("who")), { preventScrollReset: true });
  };
  const choose = (event: ChangeEvent<HTMLSelectElement>) => {
    const { form } = event.currentTarget;
    if (form) go(form);
  };
  const select = "select select-sm w-full sm:w-48";
  return (
    <Form
      ref={formRef}
      method="get"
      action="/usage"
      role="search"
      aria-label="Usage filters"
      className="flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        go(e.currentTarget);
      }}
    >
      <input type="hidden" name="days" value={days} />
      {metric !== "tokens" ? <input type="hidden" name="chart" value={metric} /> : null}
      <label className="flex flex-col gap-1 text-sm">
        <span>Model</span>
        <select name="model" className={select} defaultValue={shown.model} onChange={choose}>
          <option value="">All models</option>
          {options.models.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm">
        <span>API token</span>
        <select name="token" className={select} defaultValue={shown.token} onChange={choose}>
          <option value="">All tokens</option>
          {options.tokens.map((t) => (
            <option key={t.publicId} value={t.publicId}>
              {t.publicId}
              {t.revoked ? " (revoked)" : ""}
            </option>
          ))}
        </select>
      </label>
      {search ? <MemberSearch search={search} /> : null}
      <label className="flex flex-col gap-1 text-sm">
        <span>Member</span>
        <select name="member" className={select} defaultValue={shown.member} onChange={choose}>
          <option value="">All members</option>
          {options.members.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
          {search?.more ? <option disabled>More members match: search by name or email</option> : null}
          {search?.query && search.matched === 0 ? <option disabled>No member matches “{search.query}”</option> : null}
        </select>
      </label>
      {hydrated ? null : (
        <button type="submit" className="btn btn-sm btn-primary">
          Apply
        </button>
      )}
      {hasFilters(filters) ? (
        <Link to={usageSearch(days, metric)} className="btn btn-sm btn-ghost" preventScrollReset>
          <FilterX className="size-4" aria-hidden /> Clear filters
        </Link>
      ) : null}
      {/* An attachment: the page stays; a refusal (another organization made active) brings the page back saying why. */}
      <a href={withPageOrganization(usageCsvHref(days, filters, lastDay), pageOrganization)} className="btn btn-sm btn-outline ml-auto">
        <Download className="size-4" aria-hidden /> Export CSV
      </a>
    </Form>
  );
}

/**
 * The member search of an organization too large to list every member in a select: Enter (or Apply,
 * without JavaScript) loads the members who match into the Member select, and says how many.
 */
function MemberSearch({ search }: { search: NonNullable<FilterOptions["memberSearch"]> }) {
  const { matched } = search;
  const count = search.more ? `More than ${MEMBER_CHOICES} members match` : `${matched} member${matched === 1 ? " matches" : "s match"}`;
  return (
    <label className="flex flex-col gap-1 text-sm">
      <span>Find a member</span>
      <input
        type="search"
        name="who"
        defaultValue={search.query}
        maxLength={MEMBER_SEARCH_MAX}
        placeholder="Name or email, then Enter"
        className="input input-sm w-full sm:w-48"
      />
      <span className="sr-only" role="status">
        {search.query ? `${count} “${search.query}”.` : ""}
      </span>
    </label>
  );
}
