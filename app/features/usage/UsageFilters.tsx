import { Form, Link, useNavigate } from "@remix-run/react";
import { Download, FilterX } from "lucide-react";
import type { ChangeEvent } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { useFormValuesFrom } from "~/lib/use-form-values-from";
import { withPageOrganization } from "~/features/auth/page-organization";
import { usePageOrganizationId } from "~/features/auth/PageOrganizationField";
import type { ChartMetric, UsageFilterValues, UsagePeriod } from "./format";
import { hasFilters, usageCsvHref, usageSearch } from "./format";

export interface FilterOptions {
  models: string[];
  tokens: { publicId: string; revoked: boolean }[];
  members: { id: number; name: string }[];
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
  const formRef = useFormValuesFrom(filters, chosenOf);
  const shown = chosenOf(filters);
  const go = (form: HTMLFormElement) => {
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? "").trim() || undefined;
    const member = Number(text("member"));
    navigate(usageSearch(days, metric, { model: text("model"), token: text("token"), member: member > 0 ? member : undefined }), { preventScrollReset: true });
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
      <label className="flex flex-col gap-1 text-sm">
        <span>Member</span>
        <select name="member" className={select} defaultValue={shown.member} onChange={choose}>
          <option value="">All members</option>
          {options.members.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
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
