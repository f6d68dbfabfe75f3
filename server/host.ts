import type { RequestHandler } from "express";

/** The `Host` values that name one of these origins, with and without the scheme's default port. */
export function allowedHosts(origins: readonly string[]): Set<string> {
  const hosts = new Set<string>();
  for (const origin of origins) {
    const url = new URL(origin);
    hosts.add(url.host);
    if (!url.port) hosts.add(`${url.hostname}:${url.protocol === "https:" ? 443 : 80}`);
  }
  return hosts;
}

/** The public API's path: the only one served on the API's own host name too. */
const PUBLIC_API_PATH = "/openai/v1/";

/**
 * Refuses a request whose `Host` (or a proxy's `X-Forwarded-Host`) is not one of the console's
 * origins, before any handler runs: a page on another name that resolves to this server (DNS
 * rebinding) gets nothing, not even the sign-in page (decision 0083). The API examples' host
 * (`API_HOST_PREFIX`) is served too, for the public API alone (decision 0098).
 */
export function hostAllowList(origins: readonly string[], apiOrigins: readonly string[] = []): RequestHandler {
  const hosts = allowedHosts(origins);
  const apiHosts = allowedHosts(apiOrigins);
  const named = (value: string) => value.trim().toLowerCase();
  const consoleHost = (value: string) => hosts.has(named(value));
  const consoleOrApiHost = (value: string) => hosts.has(named(value)) || apiHosts.has(named(value));
  return (req, res, next) => {
    const ok = apiHosts.size > 0 && req.path.startsWith(PUBLIC_API_PATH) ? consoleOrApiHost : consoleHost;
    const host = req.headers.host;
    const forwarded = req.headers["x-forwarded-host"];
    const forwardedOk = forwarded === undefined || String(forwarded).split(",").every(ok);
    if (host && ok(host) && forwardedOk) return next();
    res.status(421).type("text/plain").send("Misdirected request: this server does not answer for that host name.");
  };
}
