import type { LoaderFunctionArgs } from "@remix-run/node";
import { filterParams, filtersFrom, periodFrom } from "~/features/usage/format";
import { streamCsv } from "~/platform/usage.server";
import { refuseStaleDownload, requireAccess } from "~/session.server";

/** GET /usage.csv?days=&model=&token=&member=&to=: the /usage view as CSV, streamed from the platform (issue 16). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { session, api } = await requireAccess("organization", request, context);
  await refuseStaleDownload(request, session, "/usage");
  const url = new URL(request.url);
  const query = filterParams(filtersFrom(url.searchParams), new URLSearchParams({ days: String(periodFrom(url.searchParams.get("days"))) }));
  // The window's last day as the page showed it (the platform checks it and keeps it within today).
  const to = url.searchParams.get("to");
  if (to && /^\d{4}-\d{2}-\d{2}$/.test(to)) query.set("to", to);
  return streamCsv(api, `/usage/export?${query}`, request.signal);
}
