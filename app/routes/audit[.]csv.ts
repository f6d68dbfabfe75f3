import type { LoaderFunctionArgs } from "@remix-run/node";
import { SYSTEM_ORG_ID } from "~/features/auth/guards";
import { filtersFrom, platformQuery } from "~/features/audit/audit-filters";
import { viewerTimeZone } from "~/lib/client-hints";
import { errorText } from "~/platform/client.server";
import { auditApi, AUDIT_LOAD_ERROR } from "~/platform/audit.server";
import { refuseStaleDownload, requireAccess } from "~/session.server";

/**
 * GET /audit.csv: the /audit page's current filters, every matching entry, streamed from the platform
 * as it reads them (keyset batches), never held in memory here. Admins only, as the platform rules.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { session, api } = await requireAccess("organization", request, context);
  await refuseStaleDownload(request, session, "/audit");
  if (session.activeRole !== "admin") return new Response("Only admins can export the audit log", { status: 403, headers: { "Content-Type": "text/plain" } });
  const system = session.activeOrganization.id === SYSTEM_ORG_ID;
  const query = platformQuery(filtersFrom(new URL(request.url).searchParams), viewerTimeZone(request), { paged: false, system });
  let response: Response;
  try {
    response = await auditApi(api).export(system ? "all" : "organization", query, request.signal);
  } catch (error) {
    // An external platform that went away or did not answer in time (PLATFORM_URL): the same plain
    // answer as a refusal, as the other exports give, not an error page.
    if (!request.signal.aborted) console.error("Audit export failed:", error instanceof Error ? error.message : error);
    return new Response(AUDIT_LOAD_ERROR, { status: 502, headers: { "Content-Type": "text/plain" } });
  }
  if (!response.ok) return new Response(await errorText(response, AUDIT_LOAD_ERROR), { status: response.status, headers: { "Content-Type": "text/plain" } });
  const headers = new Headers();
  for (const name of ["Content-Type", "Content-Disposition", "Cache-Control"]) {
    const value = response.headers.get(name);
    if (value) headers.set(name, value);
  }
  return new Response(response.body, { headers });
}
