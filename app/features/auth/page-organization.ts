import { PAGE_ORGANIZATION_HEADER } from "@contract/session";
import { isolate } from "~/lib/bidi";

/**
 * The organization a page showed, sent back with what the user does there (decision 0098): the
 * active organization is the session's, shared by every tab, so a page left open can be for another
 * organization than the one a later click in another tab made active. An action from such a page is
 * refused, never applied to an organization the user did not see.
 */
export const PAGE_ORGANIZATION_FIELD = "pageOrganization";
/** The same, for the console's own `fetch` calls (the chat, the card form), and its calls to the platform. */
export { PAGE_ORGANIZATION_HEADER };

/** A download link of a page (the CSV exports), naming the page's organization as its forms do. */
export function withPageOrganization(href: string, organizationId: number | undefined): string {
  if (organizationId === undefined) return href;
  return `${href}${href.includes("?") ? "&" : "?"}${PAGE_ORGANIZATION_FIELD}=${organizationId}`;
}

/** The header a `fetch` call of a page sends, naming its organization (none outside the organization layout). */
export function pageOrganizationHeaders(organizationId: number | undefined): Record<string, string> {
  return organizationId === undefined ? {} : { [PAGE_ORGANIZATION_HEADER]: String(organizationId) };
}

interface Named {
  id: number;
  name: string;
}

/** Why an action from a page of organization `shown` did nothing, or null when that is the active one. */
export function staleOrganizationMessage(
  shown: number,
  session: { activeOrganization: Named; organizations: Named[] },
  outcome: "Nothing was changed" | "Nothing was sent" | "Nothing was downloaded",
): string | null {
  const active = session.activeOrganization;
  if (shown === active.id) return null;
  const page = session.organizations.find((o) => o.id === shown);
  const now = isolate(active.name);
  return page
    ? `${outcome}: this page was for ${isolate(page.name)}, and ${now} has since been made active in another tab. The page now shows ${now}.`
    : `${outcome}: you are no longer a member of the organization this page was for. The page now shows ${now}.`;
}

/** The organization id a request names, from its header or its form field; null when it names none. */
export function namedOrganization(value: string | null | undefined): number | null {
  if (!value || !/^\d{1,15}$/.test(value)) return null;
  return Number(value);
}
