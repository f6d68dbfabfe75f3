import { PINNED_END_CELL, TableRegion } from "~/components/TableRegion";
import { Link } from "@remix-run/react";
import { Ban, SlidersHorizontal, TriangleAlert } from "lucide-react";
import { RollTokenAction } from "./RollTokenAction";
import { ConfirmAction } from "~/components/ConfirmAction";
import { Pager, rowsShown } from "~/components/Pager";
import { formatDateTime } from "~/lib/datetime";
import type { ApiToken } from "~/platform/tokens";
import type { TokenStatus } from "./token-rules";
import { expiryWarningText, tokenStatus } from "./token-rules";
import type { TokenPage } from "./token-page";
import { tokensHref } from "./token-page";
import { budgetText, modelsText, rateText } from "./spend-text";
import { MonthSpend } from "./MonthSpend";
import { utcMonthStartText } from "~/lib/utc-month";
import { TOKEN_SPEND_LOAD_ERROR } from "~/platform/usage";

const STATUS_BADGE: Record<TokenStatus, string> = {
  active: "badge-success",
  expired: "badge-warning",
  revoked: "badge-neutral",
};

interface TokenTableProps {
  /** The page shown, already in SPEC §4's order. */
  page: TokenPage<ApiToken>;
  isAdmin: boolean;
  now: number;
  timeZone: string;
  /** Spend this UTC month per public id (issue 16); each links to the token's usage. Null: it failed to load. */
  monthSpend: Record<string, number> | null;
}

/** The organization's tokens, a page at a time in the order of SPEC §4, with status, dates and Revoke for admins. */
export function TokenTable({ page, isAdmin, now, timeZone, monthSpend }: TokenTableProps) {
  const date = (value: number) => formatDateTime(value, timeZone);
  const { tokens } = page;
  // A platform of the earlier contract says nothing of who made a token: no column, rather than "—" for
  // every token, which reads as "the organization's own" (the primary token's).
  const knowsMakers = tokens.some((token) => token.createdBy !== undefined);
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="tokens-title">
      <div className="card-body">
        <h2 id="tokens-title" className="card-title">
          Tokens <span className="badge badge-ghost">{page.total}</span>
        </h2>
        {tokens.length === 0 ? (
          <p className="text-base-content/70">No tokens yet.</p>
        ) : (
          <TableRegion label="Tokens table">
            <table className="table" aria-label="API tokens">
              <thead>
                <tr>
                  <th>Token</th>
                  <th>Scopes</th>
                  <th>Status</th>
                  <th>Created</th>
                  <th>Expires</th>
                  <th>Last used</th>
                  <th>Spent / limit</th>
                  <th aria-describedby="tokens-month-note">This month (UTC)</th>
                  <th>Models</th>
                  <th>Rate limit</th>
                  {knowsMakers ? <th>Made by</th> : null}
                  {isAdmin ? <th className={`text-right ${PINNED_END_CELL}`}>Actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {tokens.map((token) => {
                  const status = tokenStatus(token, now);
                  const warning = expiryWarningText(token, now);
                  return (
                    <tr key={token.publicId} data-token={token.publicId}>
                      <td>
                        <div className="flex items-center gap-2">
                          <code className="font-mono text-sm">{token.publicId}</code>
                          {token.primary ? <span className="badge badge-primary badge-sm">primary</span> : null}
                        </div>
                        {/* A revoked or expired token refuses both secrets, so the grace note would mislead. */}
                        {status === "active" && token.previousSecretExpiresAt && token.previousSecretExpiresAt > now ? (
                          <p className="text-xs text-base-content/70">Previous secret works until {date(token.previousSecretExpiresAt)}</p>
                        ) : null}
                      </td>
                      <td>
                        <div className="flex flex-wrap gap-1">
                          {token.scopes.length === 0 ? <span className="text-base-content/50">none</span> : null}
                          {token.scopes.map((scope) => (
                            <span key={scope} className="badge badge-outline badge-sm font-mono">
                              {scope}
                            </span>
                          ))}
                        </div>
                      </td>
                      <td>
                        <span className={`badge badge-sm ${STATUS_BADGE[status]}`}>{status}</span>
                      </td>
                      <td className="whitespace-nowrap">{date(token.createdAt)}</td>
                      <td className="whitespace-nowrap">
                        <span className="inline-flex items-center gap-1">
                          {warning ? <TriangleAlert className="size-4 text-warning" role="img" aria-label={warning} /> : null}
                          {token.expiresAt === null ? "Never" : date(token.expiresAt)}
                        </span>
                      </td>
                      <td className="whitespace-nowrap">
                        {token.lastUsedAt === null ? <span className="text-base-content/50">Never used</span> : date(token.lastUsedAt)}
                      </td>
                      <td className="whitespace-nowrap">{budgetText(token.budget) ?? <span className="text-base-content/50">No limit</span>}</td>
                      <td className="whitespace-nowrap">
                        <MonthSpend publicId={token.publicId} spent={monthSpend ? (monthSpend[token.publicId] ?? 0) : null} />
                      </td>
                      <td className={token.allowedModels ? "font-mono text-sm" : "text-base-content/50"}>{modelsText(token.allowedModels)}</td>
                      <td className="whitespace-nowrap">{rateText(token.rateLimitRpm) ?? <span className="text-base-content/50">No limit</span>}</td>
                      {/* Who made it, so the tokens of a member leaving are found; none for the primary token, the organization's. */}
                      {knowsMakers ? <td>{token.createdBy ? <bdi>{token.createdBy.name}</bdi> : <span className="text-base-content/50">—</span>}</td> : null}
                      {isAdmin ? (
                        <td className={`text-right ${PINNED_END_CELL}`}>
                          {status === "active" ? (
                            <Link
                              to={tokensHref({ page: page.page, edit: token.publicId })}
                              className="btn btn-ghost btn-sm"
                              aria-label={`Settings of ${token.publicId}`}
                              preventScrollReset
                            >
                              <SlidersHorizontal className="size-4" aria-hidden /> Settings
                            </Link>
                          ) : null}
                          {status === "active" && !token.primary ? <RollTokenAction publicId={token.publicId} version={token.version} /> : null}
                          {status === "active" && !token.primary ? (
                            <ConfirmAction
                              label={
                                <>
                                  <Ban className="size-4" aria-hidden /> Revoke
                                  {/* The row's subject in the name: a list of buttons read out of the table says which token. */}
                                  <span className="sr-only"> {token.publicId}</span>
                                </>
                              }
                              question={`Revoke ${token.publicId}? Requests using it are refused from now on.`}
                              confirmLabel="Revoke token"
                              busyLabel="Revoking..."
                              intent="revoke"
                              fields={{ publicId: token.publicId }}
                            />
                          ) : null}
                        </td>
                      ) : null}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableRegion>
        )}
        <Pager
          label="Token pages"
          shown={`Page ${page.page} of ${page.pages}: ${rowsShown(tokens.length, "token")}`}
          previous={page.page > 1 ? tokensHref({ page: page.page - 1 }) : null}
          next={page.page < page.pages ? tokensHref({ page: page.page + 1 }) : null}
        />
        {tokens.length === 0 ? null : (
          <p id="tokens-month-note" className="text-sm text-base-content/70">
            This month (UTC) and monthly budgets count from {utcMonthStartText(now, timeZone)}.
            {monthSpend ? null : ` ${TOKEN_SPEND_LOAD_ERROR}: the month's figures are not shown.`}
          </p>
        )}
      </div>
    </section>
  );
}
