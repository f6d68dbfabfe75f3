/**
 * What an upstream says, made fit to pass on (decisions 0100, 0107). Providers put their own key,
 * internal addresses and whole HTML error pages in their messages; a client may read only what is
 * about its own request.
 */
import { withoutKeys } from "@contract/redact";

const URL_LIKE = /\b(?:https?|wss?):\/\/\S+/gi;
const IP_ADDRESS = /\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b/g;
const INTERNAL_HOST = /\b[\w-]+(?:\.[\w-]+)*\.(?:internal|local|lan|intranet|corp|svc|cluster\.local)\b(?::\d+)?/gi;
const MARKUP = /<\/?[a-z][^>]*>/i;

/**
 * An upstream's message as a client may read it: keys cut, addresses replaced, and nothing at all
 * (null) when it is a page of markup rather than a message.
 */
export function fitToShow(message: string): string | null {
  if (MARKUP.test(message)) return null;
  const shown = withoutKeys(message).replace(URL_LIKE, "[address]").replace(INTERNAL_HOST, "[address]").replace(IP_ADDRESS, "[address]").trim();
  return shown === "" ? null : shown;
}

/** The text of an upstream's error body (`{error:{message}}`, `{error:"…"}`, `{message}`, or the text itself), its first 300 characters. */
export function upstreamErrorText(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof body.error === "string") return body.error;
    if (typeof body.error?.message === "string") return body.error.message;
    if (typeof body.message === "string") return body.message;
  } catch {
    // not JSON
  }
  return text.trim().slice(0, 300);
}
