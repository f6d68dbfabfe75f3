import type { IncomingMessage } from "node:http";
import type { RequestHandler } from "express";
import morgan from "morgan";

/**
 * Query parameters that carry a credential: OAuth callbacks' authorization code and state, and the
 * client secret of the SetupIntent or PaymentIntent Stripe puts on the page it returns to (/billing
 * after confirmSetup): with it, the intent can be read and confirmed from a browser.
 */
const SECRET_PARAMS = new Set(["code", "state", "setup_intent_client_secret", "payment_intent_client_secret", "client_secret"]);
/** Invite codes in the join path: enough of the code is kept to tell joins apart, not to use one. */
const JOIN_PATH = /^(\/api\/v1\/auth\/join\/)([^/?#]+)/;
const KEPT = 4;

/** A request target as it may be written to a log: invite codes shortened, OAuth codes and states and Stripe client secrets replaced. */
export function redactUrl(target: string): string {
  const queryAt = target.indexOf("?");
  const pathname = queryAt < 0 ? target : target.slice(0, queryAt);
  const redactedPath = pathname.replace(JOIN_PATH, (_all, prefix: string, code: string) => `${prefix}${code.slice(0, KEPT)}…`);
  if (queryAt < 0) return redactedPath;
  // The query is rewritten piece by piece, not through URLSearchParams, so the rest stays as sent.
  const query = target
    .slice(queryAt + 1)
    .split("&")
    .map((pair) => {
      const name = pair.split("=", 1)[0];
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, " "));
      } catch {
        // A malformed name is logged as sent.
      }
      return SECRET_PARAMS.has(decoded.toLowerCase()) ? `${name}=[redacted]` : pair;
    })
    .join("&");
  return `${redactedPath}?${query}`;
}

/** The Referer too: a page's address can carry the same credentials. */
function redactReferrer(value: string | undefined): string | undefined {
  if (!value) return value;
  if (!URL.canParse(value)) return redactUrl(value);
  const url = new URL(value);
  return `${url.origin}${redactUrl(url.pathname + url.search)}`;
}

// morgan lets a token be redefined; the stock formats ("combined", "dev") then use the redacted form.
morgan.token("url", (req: IncomingMessage & { originalUrl?: string }) => redactUrl(req.originalUrl ?? req.url ?? ""));
morgan.token("referrer", (req: IncomingMessage) => {
  const header = req.headers.referer ?? req.headers.referrer;
  return redactReferrer(Array.isArray(header) ? header[0] : header);
});

/** Morgan's combined format with the request's id at the end (server/request-id.ts), as nginx setups add fields. */
const COMBINED_WITH_ID =
  ':remote-addr - :remote-user [:date[clf]] ":method :url HTTP/:http-version" :status :res[content-length] ":referrer" ":user-agent" :req[x-request-id]';

/** The access log (LOG_REQUESTS): morgan's combined format and the request id in production, its short coloured one otherwise. */
export function accessLog(production: boolean, stream?: NodeJS.WritableStream): RequestHandler {
  return morgan(production ? COMBINED_WITH_ID : "dev", stream ? { stream } : {});
}
