import type { LoaderFunctionArgs } from "@remix-run/node";
import { getHints } from "~/lib/client-hints";
import { streamCsv } from "~/platform/usage.server";
import { requireAccess } from "~/session.server";

/**
 * GET /billing/ledger.csv?from=&to=: the ledger as CSV, streamed from the platform (issue 16). Days and
 * times are in the viewer's time zone, the one the billing screen renders with (client hint, else UTC).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await requireAccess("organization", request, context);
  const url = new URL(request.url);
  const query = new URLSearchParams({ tz: getHints(request).timeZone ?? "UTC" });
  for (const name of ["from", "to"]) {
    const value = url.searchParams.get(name)?.trim();
    if (value) query.set(name, value.slice(0, 20));
  }
  return streamCsv(api, `/billing/ledger/export?${query}`, request.signal);
}
