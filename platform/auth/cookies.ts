import type { Context } from "hono";
import { SESSION_COOKIE } from "@contract/session";
import { deleteCookie, getCookie, getSignedCookie, setCookie, setSignedCookie } from "hono/cookie";
import type { PlatformEnv } from "../context";
import { publicOrigin } from "../http/hosts";

const OAUTH_COOKIE = "oauth_flow";
export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;

/** Secure whenever the console is served over https (APP_ORIGIN, or the request itself). */
function secure(c: Context<PlatformEnv>): boolean {
  return publicOrigin(c.var.deps.config, c.req.url).startsWith("https:");
}

export function readSessionCookie(c: Context<PlatformEnv>): string | undefined {
  return getCookie(c, SESSION_COOKIE);
}

export function writeSessionCookie(c: Context<PlatformEnv>, id: string) {
  setCookie(c, SESSION_COOKIE, id, {
    httpOnly: true,
    sameSite: "Lax",
    path: "/",
    secure: secure(c),
    maxAge: SESSION_TTL_MS / 1000,
  });
}

export function clearSessionCookie(c: Context<PlatformEnv>) {
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure: secure(c) });
}

export interface OAuthFlow {
  provider: string;
  state: string;
  verifier: string;
}

export async function writeOAuthFlow(c: Context<PlatformEnv>, flow: OAuthFlow) {
  await setSignedCookie(c, OAUTH_COOKIE, JSON.stringify(flow), c.var.deps.config.sessionSecret, {
    httpOnly: true,
    sameSite: "Lax",
    path: "/api/v1/auth",
    secure: secure(c),
    maxAge: 600,
  });
}

/** Reads and forgets the flow: a state is good for one callback only. */
export async function takeOAuthFlow(c: Context<PlatformEnv>): Promise<OAuthFlow | null> {
  const raw = await getSignedCookie(c, c.var.deps.config.sessionSecret, OAUTH_COOKIE);
  deleteCookie(c, OAUTH_COOKIE, { path: "/api/v1/auth", secure: secure(c) });
  if (!raw) return null;
  try {
    return JSON.parse(raw) as OAuthFlow;
  } catch {
    return null;
  }
}
