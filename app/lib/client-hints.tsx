import { getHintUtils } from "@epic-web/client-hints";
import { clientHint as timeZoneHint } from "@epic-web/client-hints/time-zone";
import { knownZone } from "@contract/zone";

/**
 * The browser's time zone reaches the server in a cookie, so dates render the same text on the server
 * and in the browser (DESIGN §6). Without JavaScript the fallback is UTC.
 */
const hints = getHintUtils({ timeZone: timeZoneHint });

/**
 * The viewer's time zone, checked: a zone the server's runtime refuses (Chrome's `Etc/Unknown`, a bad
 * cookie) is UTC, as for a browser without JavaScript. Read the zone here, never from `getHints`.
 */
export function viewerTimeZone(request: Request): string {
  return knownZone(hints.getHints(request).timeZone);
}

export function ClientHintCheck({ nonce }: { nonce: string }) {
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: hints.getClientHintCheckScript() }} />;
}
