import type { PlatformConfig } from "../config";
import { isDevSignin } from "../config";

/** The names a browser on the server's own machine uses for it (URL host form: IPv6 in brackets). */
export const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"] as const;

type OriginConfig = Pick<PlatformConfig, "appOrigin" | "port" | "oauth">;

/**
 * The origins the console is served from: the configured `APP_ORIGIN`, plus, in development sign-in
 * mode, the loopback names with the server's port (a fresh install is opened as localhost or
 * 127.0.0.1 alike). Never the request's own Host: a DNS-rebinding page names itself (decision 0083).
 * Undefined when no origin is configured (platform tests), where each request's own origin stands in.
 */
export function consoleOrigins(config: OriginConfig): string[] | undefined {
  if (!config.appOrigin) return undefined;
  const origins = [new URL(config.appOrigin).origin];
  if (isDevSignin(config)) {
    const configured = new URL(config.appOrigin);
    const base = config.port ? `http://x:${config.port}` : configured.origin;
    for (const name of LOOPBACK_NAMES) {
      const url = new URL(base);
      url.hostname = name;
      origins.push(url.origin);
    }
  }
  return [...new Set(origins)];
}

/**
 * The console origin this request belongs to: the request's own origin when it is one of the
 * console's origins, else the configured one. OAuth redirect URIs and cookie flags are built from it.
 */
export function publicOrigin(config: OriginConfig, requestUrl: string): string {
  const own = new URL(requestUrl).origin;
  const origins = consoleOrigins(config);
  if (!origins) return own;
  return origins.includes(own) ? own : origins[0];
}

/** Whether a `Host` header names the loopback interface (localhost, 127.0.0.1, [::1]), any port. */
export function isLoopbackHost(host: string | undefined | null): boolean {
  if (!host) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    return false;
  }
  return (LOOPBACK_NAMES as readonly string[]).includes(hostname);
}
