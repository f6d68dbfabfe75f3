import { Alert } from "~/components/Alert";
import { Pager, rowsShown } from "~/components/Pager";
import { TableRegion } from "~/components/TableRegion";
import { formatDateTime } from "~/lib/datetime";
import { formatChange, formatExactChange } from "./format";
import type { LedgerPage } from "./ledger-page";
import { BILLING_MESSAGES } from "./messages";

/** One page of the ledger, newest first, with Previous and Next as plain links (keyset pages). */
export function LedgerTable({ page, timeZone }: { page: LedgerPage; timeZone: string }) {
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="ledger-title">
      <div className="card-body">
        <h2 id="ledger-title" className="card-title">
          Activity
        </h2>
        {page.rows === null ? (
          <Alert kind="error">
            <span>{BILLING_MESSAGES.ledgerFailed}</span>
          </Alert>
        ) : page.rows.length === 0 ? (
          <p className="py-6 text-center text-base-content/70">{BILLING_MESSAGES.emptyLedger}</p>
        ) : (
          <TableRegion label="Activity table">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Timestamp</th>
                  <th scope="col">Description</th>
                  <th scope="col">Model</th>
                  <th scope="col">Rate card</th>
                  <th scope="col" className="text-right">
                    Change
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.rows.map((row) => (
                  <tr key={row.id}>
                    <td className="whitespace-nowrap tabular-nums">{formatDateTime(row.timestamp, timeZone)}</td>
                    <td>{row.description}</td>
                    <td>{row.model ?? "—"}</td>
                    <td>{row.rateCardId ?? "—"}</td>
                    <td className={`text-right tabular-nums font-medium ${row.change < 0 ? "text-error" : "text-success"}`}>
                      <Change dollars={row.change} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
        <Pager
          label="Ledger pages"
          shown={rowsShown(page.rows?.length ?? 0, "ledger entry")}
          previous={page.newerCursor !== null ? `?after=${page.newerCursor}` : null}
          next={page.olderCursor !== null ? `?before=${page.olderCursor}` : null}
        />
      </div>
    </section>
  );
}

/** A change as SPEC shows it (2 decimals); one it rounds (a sub-cent debit) carries its exact amount in its title and accessible name. */
export function Change({ dollars }: { dollars: number }) {
  const shown = formatChange(dollars);
  const exact = formatExactChange(dollars);
  if (exact === shown) return <>{shown}</>;
  return (
    <span title={exact}>
      <span aria-hidden="true">{shown}</span>
      <span className="sr-only">{exact}</span>
    </span>
  );
}
