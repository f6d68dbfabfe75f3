import { DATE_RANGE_REVERSED } from "@contract/date-range";
import { Download } from "lucide-react";
import { Alert } from "~/components/Alert";
import { PageOrganizationField } from "~/features/auth/PageOrganizationField";

export const EXPORT_RECONCILES = "Exported totals match the ledger";

/** Why an export came back (billing.ledger[.]csv.ts), by its code. */
const EXPORT_REFUSALS = { reversed: DATE_RANGE_REVERSED, invalid: "Choose the days to export with the date pickers, or none." } as const;

/**
 * The ledger's CSV export (issue 16): a plain GET form to the resource route, so the browser downloads
 * the file with or without JavaScript. Empty dates export the whole ledger; days are in the time zone the
 * table above uses.
 *
 * A refused export comes back here once (a flash, ledger-export.server.ts) with its reason and the dates as
 * typed. An export that works is a download: the page stays as it is, so the reason goes by CSS once the
 * form is sent again (`.export-refusal` in app.css), with or without JavaScript.
 */
export function LedgerExport({
  timeZone,
  refusal = null,
}: {
  timeZone: string;
  refusal?: { error: keyof typeof EXPORT_REFUSALS; from: string; to: string } | null;
}) {
  return (
    <section className="ledger-export card bg-base-100 shadow-sm" aria-labelledby="ledger-export-title">
      <div className="card-body gap-3">
        <h2 id="ledger-export-title" className="card-title">
          Export
        </h2>
        <form method="get" action="/billing/ledger.csv" className="flex flex-wrap items-end gap-3">
          <PageOrganizationField />
          <label className="flex flex-col gap-1 text-sm">
            <span>From</span>
            <input type="date" name="from" className="input input-sm" defaultValue={refusal?.from ?? ""} />
          </label>
          <label className="flex flex-col gap-1 text-sm">
            <span>To</span>
            <input type="date" name="to" className="input input-sm" defaultValue={refusal?.to ?? ""} />
          </label>
          <button type="submit" className="btn btn-sm btn-outline">
            <Download className="size-4" aria-hidden /> Export ledger (CSV)
          </button>
        </form>
        {refusal ? (
          <Alert kind="error" focus className="export-refusal">
            {EXPORT_REFUSALS[refusal.error]}
          </Alert>
        ) : null}
        <p className="text-sm text-base-content/70">
          {EXPORT_RECONCILES}: every row with its exact amount to the micro-dollar; with no dates, the rows add up to the balance. Days and times are in{" "}
          {timeZone}, as above.
        </p>
      </div>
    </section>
  );
}
