import type { IncomingMessage } from "node:http";
import type { RequestHandler } from "express";
import morgan from "morgan";
import { redactUrl } from "@contract/redact";

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

/**
 * Morgan's combined format with, at the end, the id the answer names in `X-Request-Id`, as nginx setups
 * add fields: the request's (server/request-id.ts), or a `/openai/v1` completion's receipt, which the
 * client's SDK shows and its usage row and failure lines name (decision 0138). The user field is always
 * "-": morgan writes Basic auth's user name there, and a client that sends its API key as one
 * (`curl -u "$KEY:"`) would have it logged whole.
 */
const COMBINED_WITH_ID =
  ':remote-addr - - [:date[clf]] ":method :url HTTP/:http-version" :status :res[content-length] ":referrer" ":user-agent" :res[x-request-id]';

/** The access log (LOG_REQUESTS): morgan's combined format and the request id in production, its short coloured one otherwise. */
export function accessLog(production: boolean, stream?: NodeJS.WritableStream): RequestHandler {
  return morgan(production ? COMBINED_WITH_ID : "dev", stream ? { stream } : {});
}
