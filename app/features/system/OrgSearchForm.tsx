import { Form, Link } from "@remix-run/react";
import { Search } from "lucide-react";
import { ORGANIZATION_SEARCH_MAX } from "~/platform/system";

/** A plain GET form: the search lands in the URL, with or without JavaScript, and starts at the newest page. */
export function OrgSearchForm({ q }: { q: string }) {
  return (
    <Form method="get" action="/system/orgs" role="search" aria-label="Find organizations" className="flex flex-wrap items-end gap-2">
      <label className="flex flex-col gap-1 text-sm">
        Find an organization
        {/* The key starts the field afresh when the URL's search changes (a link, Back). */}
        <input key={q} type="search" name="q" defaultValue={q} maxLength={ORGANIZATION_SEARCH_MAX} placeholder="Name or ID" className="input input-sm w-64" />
      </label>
      <button type="submit" className="btn btn-sm">
        <Search className="size-4" aria-hidden /> Search
      </button>
      {q ? (
        <Link to="/system/orgs" className="btn btn-sm btn-ghost">
          Show all
        </Link>
      ) : null}
    </Form>
  );
}
