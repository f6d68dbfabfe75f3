import { DATE_RANGE_REVERSED } from "@contract/date-range";
import { useSearchParams } from "@remix-run/react";
import { Download } from "lucide-react";
import type { FormEvent } from "react";
import { useEffect, useRef, useState } from "react";
import { Alert } from "~/components/Alert";
import { PageOrganizationField } from "~/features/auth/PageOrganizationField";

export const EXPORT_RECONCILES = "Exported totals match the ledger";

/** Why an export came back (billing.ledger[.]csv.ts), by the code in the URL. */
const EXPORT_REFUSALS = new Map([
  ["reversed", DATE_RANGE_REVERSED],
  ["invalid", "Choose the days to export with the date pickers, or none."],
]);

/** What a refused export put in the page's URL (billing.ledger[.]csv.ts). */
const REFUSAL_PARAMS = ["exportError", "exportFrom", "exportTo"];

/**
 * The ledger's CSV export (issue 16): a plain GET form to the resource route, so the browser downloads
 * the file with or without JavaScript. Empty dates export the whole ledger; days are in the time zone the
 * table above uses.
 */
export function LedgerExport({ timeZone }: { timeZone: string }) {
  // A refused export comes back here with its reason and the dates as typed (billing.ledger[.]csv.ts).
  const [params, setParams] = useSearchParams();
  const refusal = EXPORT_REFUSALS.get(params.get("exportError") ?? "");
  // The dates as they came, kept from the first render: the URL that brought them is dropped before the next
  // export. The inputs stay uncontrolled, so what is typed before hydration stays too.
  const [typed] = useState(() => ({ from: params.get("exportFrom") ?? "", to: params.get("exportTo") ?? "" }));
  const refused = REFUSAL_PARAMS.some((name) => params.has(name));
  // An export that works is a download: the page and its URL stay, so a refusal left in the URL would stay on
  // screen, and come back on reload. With JavaScript the URL drops it first and the form goes once that
  // has landed: a URL change while the download's request runs would cancel it (both are navigations).
  const waiting = useRef<HTMLFormElement | null>(null);
  useEffect(() => {
    const form = waiting.current;
    if (refused || !form) return;
    waiting.current = null;
    form.requestSubmit();
  }, [refused]);
  const dropRefusal = (event: FormEvent<HTMLFormElement>) => {
    if (!refused) return;
    event.preventDefault();
    waiting.current = event.currentTarget;
    const next = new URLSearchParams(params);
    for (const name of REFUSAL_PARAMS) next.delete(name);
    setParams(next, { replace: true, preventScrollReset: true });
  };
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="ledger-export-title">
      <div className="card-body gap-3">
        <h2 id="ledger-export-title" className="card-title">
          Export
        </h2>
        <form method="get" action="/billing/ledger.csv" className="flex flex-wrap items-end gap-3" onSubmit={dropRefusal}>
          <PageOrganizationField />
          <label className="flex flex-col gap-1 text-sm">
            <span>From</span>
            <input type="date" name="from" className="input input-sm" defaultValue={typed.from} />
          </label>
          <label className="flex flex-col gap-1 text-sm">
            <span>To</span>
            <input type="date" name="to" className="input input-sm" defaultValue={typed.to} />
          </label>
          <button type="submit" className="btn btn-sm btn-outline">
            <Download className="size-4" aria-hidden /> Export ledger (CSV)
          </button>
        </form>
        {refusal ? (
          <Alert kind="error" focus>
            {refusal}
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
