import type { Cookie, CookieOptions } from "@remix-run/node";
import { createCookie } from "@remix-run/node";

/**
 * The console's own cookies (toast, return_to): signed with SESSION_SECRET, so a forged or altered
 * one is ignored, and Secure whenever the session cookie is (APP_ORIGIN on https). The server sets
 * both variables at start (server/index.ts), before the app is loaded (decision 0083).
 */
export function consoleCookieSettings(env: Record<string, string | undefined> = process.env): { secrets: string[]; secure: boolean } {
  const secret = env.SESSION_SECRET;
  if (!secret) throw new Error("SESSION_SECRET is not set: the console's cookies can't be signed");
  return { secrets: [secret], secure: (env.APP_ORIGIN ?? "").startsWith("https:") };
}

/** A signed console cookie, made on first use (the secret is known once the server has started). */
export function consoleCookie(name: string, options: CookieOptions): () => Cookie {
  let cookie: Cookie | undefined;
  return () => {
    if (!cookie) {
      const { secrets, secure } = consoleCookieSettings();
      cookie = createCookie(name, { ...options, secrets, secure });
    }
    return cookie;
  };
}
