/**
 * What the logs may hold of a request target: the access log (server/access-log.ts), the platform's
 * error lines and the console's platform client all write targets through this one function (README,
 * LOG_REQUESTS), so none writes a whole invite code, OAuth code, Stripe client secret or API key.
 */

/**
 * Key-like words are never passed on, nor logged: OpenAI's and Stripe's (`sk-…`, `sk_live_…`, even masked
 * as `sk-ab***yz`), this platform's API tokens (`sk-…`), Groq's and xAI's (`gsk_…`, `xai-…`), Hugging
 * Face's (`hf_…`) and Google's (`AIza…`).
 */
const KEY_LIKE = /\b(?:(?:sk|rk|pk|gsk|xai)[-_][\w*.-]{4,}|hf_[\w*]{8,}|AIza[\w*-]{20,})/gi;

export function withoutKeys(message: string): string {
  return message.replace(KEY_LIKE, "[redacted]");
}

/**
 * Query parameters clients put an API key in (`?api_key=`, `?key=` as Google's APIs take it…): replaced
 * whatever their value looks like.
 */
const KEY_PARAMS = ["api_key", "api-key", "apikey", "key", "token", "access_token", "auth", "authorization"];

/**
 * Query parameters that carry a credential: OAuth callbacks' authorization code and state, and the
 * client secret of the SetupIntent or PaymentIntent Stripe puts on the page it returns to (/billing
 * after confirmSetup): with it, the intent can be read and confirmed from a browser; and an API key's.
 */
const SECRET_PARAMS = new Set(["code", "state", "setup_intent_client_secret", "payment_intent_client_secret", "client_secret", ...KEY_PARAMS]);
/** Invite codes in a join path: enough of the code is kept to tell joins apart, not to use one. */
const JOIN_PATH = /(\/join\/+)([^/?#]+)/i;
const KEPT = 4;

/**
 * The path as the router reads it: percent-escapes decoded and dot segments resolved, so
 * `/api/v1/auth/./join/CODE` or `/api/v1/auth/%6Aoin/CODE` (which join) are matched as the join path.
 */
function asRouted(pathname: string): string {
  let decoded = pathname;
  try {
    // An escaped slash stays one character of its segment (as the router keeps it), so a code holding
    // one is cut as a whole.
    decoded = decodeURIComponent(pathname.replace(/%2F/gi, "%252F"));
  } catch {
    // A malformed escape is matched as sent.
  }
  try {
    return new URL(decoded, "http://log.invalid").pathname;
  } catch {
    return decoded;
  }
}

/**
 * A request target as it may be written to a log: invite codes shortened; OAuth codes and states, Stripe
 * client secrets and API keys (in a key's parameter, or anything that looks like one anywhere) replaced.
 */
export function redactUrl(target: string): string {
  return withoutKeys(redactParts(target));
}

function redactParts(target: string): string {
  const queryAt = target.indexOf("?");
  const pathname = queryAt < 0 ? target : target.slice(0, queryAt);
  // A join path is logged as routed, its code cut; any other path as sent.
  const routed = asRouted(pathname);
  const redactedPath = JOIN_PATH.test(routed)
    ? routed.replace(JOIN_PATH, (_all, prefix: string, code: string) => `${prefix}${code.slice(0, KEPT)}…`)
    : pathname;
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
