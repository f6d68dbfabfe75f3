import { getHintUtils } from "@epic-web/client-hints";
import { clientHint as timeZoneHint } from "@epic-web/client-hints/time-zone";

/**
 * The browser's time zone reaches the server in a cookie, so dates render the same text on the server
 * and in the browser (DESIGN §6). Without JavaScript the fallback is UTC.
 */
const hints = getHintUtils({ timeZone: timeZoneHint });

export const { getHints } = hints;

export function ClientHintCheck({ nonce }: { nonce: string }) {
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: hints.getClientHintCheckScript() }} />;
}
