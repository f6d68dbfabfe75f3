import type { HeadersFunction } from "@remix-run/node";

/**
 * The headers of every page that shows a signed-in person's data (the organization layout's pages and
 * what they render, /welcome), for its document and its data requests alike: no cache keeps them. Back
 * after signing out (in this tab or another) then asks the server, which sends the visitor to sign in,
 * where the browser's cache showed the ledger, the tokens or the audit log again; and a page that
 * revealed a new secret is not kept whole in the back-forward cache. A route below the layout without
 * a `headers` export of its own answers with these (Remix passes the parent's on).
 */
export const noStore: HeadersFunction = () => ({ "Cache-Control": "no-store" });
