import { useRouteLoaderData } from "@remix-run/react";
import { PAGE_ORGANIZATION_FIELD } from "./page-organization";

/** The organization the page shows, or undefined outside the organization layout. */
export function usePageOrganizationId(): number | undefined {
  return useRouteLoaderData<{ activeOrganization: { id: number } }>("routes/_org")?.activeOrganization.id;
}

/** Put in every form that acts on the active organization: the server refuses it for another one. */
export function PageOrganizationField() {
  const id = usePageOrganizationId();
  return id === undefined ? null : <input type="hidden" name={PAGE_ORGANIZATION_FIELD} value={id} />;
}
