import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Download } from "lucide-react";
import type { ReactNode } from "react";
import { Alert } from "~/components/Alert";
import { SYSTEM_ORG_ID } from "~/features/auth/guards";
import { withPageOrganization } from "~/features/auth/page-organization";
import { usePageOrganizationId } from "~/features/auth/PageOrganizationField";
import { AuditFilterForm } from "~/features/audit/AuditFilterForm";
import { AuditTable } from "~/features/audit/AuditTable";
import { auditSearch, filtersFrom, platformQuery } from "~/features/audit/audit-filters";
import { viewerTimeZone } from "~/lib/client-hints";
import { useTimeZone } from "~/lib/use-time-zone";
import { auditApi } from "~/platform/audit.server";
import { requireAccess } from "~/session.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "Audit Log" };

/**
 * The organization's audit log (issue 16), for admins: members are answered 403, as the platform
 * answers them. In the system organization it is every organization's log, filterable by organization.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { session, api } = await requireAccess("organization", request, context);
  if (session.activeRole !== "admin") throw data({ error: "Only admins can see the audit log" }, { status: 403 });
  const system = session.activeOrganization.id === SYSTEM_ORG_ID;
  const filters = filtersFrom(new URL(request.url).searchParams);
  const query = platformQuery(filters, viewerTimeZone(request), { paged: true, system });
  const page = await auditApi(api).page(system ? "all" : "organization", query);
  if (!page.ok && page.status === 403) throw data({ error: page.error }, { status: 403 });
  return {
    filters,
    system,
    entries: page.ok ? page.data.entries : [],
    nextBefore: page.ok ? page.data.nextBefore : null,
    loadError: page.ok ? null : page.error,
  };
}

function auditTitle(system: boolean, organization: number | null, name: string | null | undefined): ReactNode {
  if (organization) {
    // Isolated: a right-to-left name took the number with it ("Entries of (#59) שירותי ענן").
    return name ? (
      <>
        Entries of <bdi>{name}</bdi> (#{organization})
      </>
    ) : (
      `Entries of organization #${organization}`
    );
  }
  return system ? "Entries of every organization" : "Entries";
}

export default function AuditPage() {
  const { filters, system, entries, nextBefore, loadError } = useLoaderData<typeof loader>();
  const timeZone = useTimeZone();
  const pageOrganization = usePageOrganizationId();
  const filtered = auditSearch(filters) !== "";
  const empty = entries.length === 0 && !loadError;
  const organization = system && filters.organization ? filters.organization : null;
  const organizationName = organization ? entries.find((e) => e.organizationId === organization)?.organizationName : null;
  return (
    <div className="flex flex-col gap-6">
      <section className="card bg-base-100 shadow-sm" aria-labelledby="audit-title">
        <div className="card-body gap-4">
          <div className="flex flex-wrap items-start justify-between gap-4">
            <div>
              <h2 id="audit-title" className="card-title">
                {auditTitle(system, organization, organizationName)}
              </h2>
              <p className="text-sm text-base-content/70">
                Every admin action and sign-in: who, what, the values before and after, when and from where. Entries can't be edited or deleted.
              </p>
            </div>
            {/* The CSV streams from the platform as an attachment: the page stays. A plain link, not `download`, so that
                a refusal (a page of an organization no longer active) brings the page back saying why. */}
            <a href={withPageOrganization(`/audit.csv${auditSearch({ ...filters, before: null })}`, pageOrganization)} className="btn btn-sm">
              <Download className="size-4" aria-hidden /> Export CSV
            </a>
          </div>
          <AuditFilterForm filters={filters} system={system} />
          {loadError ? <Alert kind="error">{loadError}</Alert> : null}
          {/* A status always there, so a filter applied from the keyboard says it found nothing (WCAG 4.1.3). */}
          <p role="status" className={empty ? "text-base-content/70" : "sr-only"}>
            {empty ? (filtered ? "No entries match these filters." : "No entries yet.") : ""}
          </p>
          {entries.length > 0 ? (
            <AuditTable
              entries={entries}
              timeZone={timeZone}
              organizationFilter={system ? (id) => `/audit${auditSearch({ ...filters, organization: id, before: null })}` : null}
            />
          ) : null}
          {filters.before || nextBefore ? (
            <nav aria-label="Audit log pages" className="flex gap-2">
              {filters.before ? (
                <Link to={`/audit${auditSearch({ ...filters, before: null })}`} className="btn btn-sm btn-ghost">
                  Newest
                </Link>
              ) : null}
              {nextBefore ? (
                <Link to={`/audit${auditSearch(filters, { before: nextBefore })}`} className="btn btn-sm">
                  Older entries
                </Link>
              ) : null}
            </nav>
          ) : null}
        </div>
      </section>
    </div>
  );
}
