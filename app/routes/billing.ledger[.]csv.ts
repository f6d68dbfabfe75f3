import type { LoaderFunctionArgs } from "@remix-run/node";
import { DATE_RANGE_REVERSED } from "@contract/date-range";
import { exportRefusalHeader } from "~/features/billing/ledger-export.server";
import { viewerTimeZone } from "~/lib/client-hints";
import { streamCsv } from "~/platform/usage.server";
import { refuseStaleDownload, requireAccess } from "~/session.server";

/**
 * GET /billing/ledger.csv?from=&to=: the ledger as CSV, streamed from the platform (issue 16). Days and
 * times are in the viewer's time zone, the one the billing screen renders with (client hint, else UTC).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { session, api } = await requireAccess("organization", request, context);
  await refuseStaleDownload(request, session, "/billing");
  const url = new URL(request.url);
  const query = new URLSearchParams({ tz: viewerTimeZone(request) });
  for (const name of ["from", "to"]) {
    const value = url.searchParams.get(name)?.trim();
    if (value) query.set(name, value.slice(0, 20));
  }
  // A refused range goes back to /billing with the dates and which refusal it was, in a one-shot flash: not
  // in the URL, which a later export that downloads leaves as it is (ledger-export.server.ts).
  const back = async (message: string, headers: Headers) => {
    const error = message === DATE_RANGE_REVERSED ? "reversed" : "invalid";
    headers.append("Set-Cookie", await exportRefusalHeader({ error, from: query.get("from") ?? "", to: query.get("to") ?? "" }));
    return "/billing";
  };
  return streamCsv(api, `/billing/ledger/export?${query}`, request.signal, back);
}
