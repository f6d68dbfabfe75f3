import type { LoaderFunctionArgs } from "@remix-run/node";
import { filterParams, filtersFrom, periodFrom } from "~/features/usage/format";
import { streamCsv } from "~/platform/usage.server";
import { requireAccess } from "~/session.server";

/** GET /usage.csv?days=&model=&token=&member=: the /usage view as CSV, streamed from the platform (issue 16). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await requireAccess("organization", request, context);
  const url = new URL(request.url);
  const query = filterParams(filtersFrom(url.searchParams), new URLSearchParams({ days: String(periodFrom(url.searchParams.get("days"))) }));
  return streamCsv(api, `/usage/export?${query}`, request.signal);
}
