import type { AppLoadContext } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { consoleCookie, consoleCookieSettings } from "./cookies.server";
import type { Access } from "./features/auth/guards";
import { namedOrganization, PAGE_ORGANIZATION_FIELD, PAGE_ORGANIZATION_HEADER, staleOrganizationMessage } from "./features/auth/page-organization";
import { guard, safeRedirectPath } from "./features/auth/guards";
import type { PlatformClient } from "./platform/client.server";
import { platformClient } from "./platform/client.server";
import type { OrgSession, Session, ValidSession } from "./platform/schemas";
import { toastHeader } from "./toast.server";

/** The page a signed-out visitor asked for, kept across the sign-in round trip (DESIGN §3). */
const returnToCookie = consoleCookie("return_to", { httpOnly: true, sameSite: "lax", path: "/", maxAge: 600 });

/** Secure under an https APP_ORIGIN (the cookie's own setting), or when this request came over https. */
function secure(request: Request) {
  return consoleCookieSettings().secure || new URL(request.url).protocol === "https:";
}

export async function rememberPath(request: Request, path: string | null): Promise<string | null> {
  const safe = safeRedirectPath(path);
  return safe ? returnToCookie().serialize(safe, { secure: secure(request) }) : null;
}

/** The remembered page (if it is a same-site path) and the header that forgets it. */
export async function takeRememberedPath(request: Request): Promise<{ path: string | null; clear: string }> {
  const value = (await returnToCookie().parse(request.headers.get("cookie"))) as unknown;
  return { path: safeRedirectPath(typeof value === "string" ? value : null), clear: await returnToCookie().serialize("", { maxAge: 0 }) };
}

/**
 * Loads the session through the platform; a refused check counts as signed out (SPEC §8). A check
 * the platform could not make (a 5xx: its database is down, or it can't be reached) is an error page,
 * 503: sending a signed-in person to sign in would be wrong, and signing in would fail too.
 */
export async function loadSession(api: PlatformClient): Promise<Session> {
  const result = await api.session();
  if (!result.ok && result.status >= 500) throw new Response("Service unavailable", { status: 503, statusText: "Service Unavailable" });
  return result.ok ? result.data : { valid: false };
}

/**
 * A page's loaders (the layout's and the page's) share one session check per request: they run with
 * the same load context. Only loaders do (GET): an action may change the session, and the loaders
 * that follow it in the same request must see the change.
 */
const sessionPerRequest = new WeakMap<AppLoadContext, Promise<Session>>();

function loadSessionOnce(api: PlatformClient, request: Request, context: AppLoadContext): Promise<Session> {
  if (request.method !== "GET") return loadSession(api);
  let session = sessionPerRequest.get(context);
  if (!session) {
    session = loadSession(api);
    sessionPerRequest.set(context, session);
  }
  return session;
}

type SessionFor<A extends Access> = A extends "organization" | "system" ? OrgSession : A extends "signed-out" ? Session : ValidSession;

const SUBRESOURCE = new Set(["image", "script", "style", "font", "manifest", "audio", "video"]);

/**
 * Applies a route guard of SPEC §2 in a loader: returns the session and the platform client, or throws
 * the redirect (remembering the origin page when it sends a visitor to sign in).
 */
export async function requireAccess<A extends Access>(
  access: A,
  request: Request,
  context: AppLoadContext,
): Promise<{ session: SessionFor<A>; api: PlatformClient }> {
  const api = platformClient(request, context);
  const session = await loadSessionOnce(api, request, context);
  const result = guard(access, session);
  // A form posted from a page of an organization that is no longer the active one says why it did
  // nothing: back to that page when the user may still use it, else to where the guard sends them
  // (a system page after losing system rights).
  if (request.method !== "GET" && session.valid && session.activeOrganization) {
    await refuseStaleOrganization(request, session as OrgSession, result.allow ? undefined : result.redirectTo);
    // Checked here against this reading of the session; the platform checks it again with its own.
    api.expectOrganization(session.activeOrganization.id);
  }
  if (!result.allow) {
    const headers = new Headers();
    // A stray subresource (an icon, a stale script) that reaches the console's catch-all page is
    // not a page the visitor wanted to come back to.
    if (result.remember && !SUBRESOURCE.has(request.headers.get("sec-fetch-dest") ?? "")) {
      const url = new URL(request.url);
      const cookie = await rememberPath(request, url.pathname + url.search);
      if (cookie) headers.append("Set-Cookie", cookie);
    }
    throw redirect(result.redirectTo, { headers });
  }
  return { session: session as SessionFor<A>, api };
}

/** The organization a page's form or fetch call says it was for, without consuming the body. */
async function pageOrganization(request: Request): Promise<number | null> {
  const header = namedOrganization(request.headers.get(PAGE_ORGANIZATION_HEADER));
  if (header !== null) return header;
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data")) return null;
  // A body that is not a form (a multipart body cut short) names none: the action's own read refuses it 400.
  const value = await request
    .clone()
    .formData()
    .then((form) => form.get(PAGE_ORGANIZATION_FIELD))
    .catch(() => null);
  return namedOrganization(typeof value === "string" ? value : null);
}

/**
 * An action from a page of another organization than the active one (switched in another tab, or
 * removed from it since) does nothing: back to the page, now the active organization's, saying why.
 */
async function refuseStaleOrganization(request: Request, session: OrgSession, redirectTo?: string): Promise<void> {
  const shown = await pageOrganization(request);
  if (shown === null) return;
  const message = staleOrganizationMessage(shown, session, "Nothing was changed");
  if (!message) return;
  const url = new URL(request.url);
  // A path that starts "//" would send the browser to another host: such a page is nobody's to go back to.
  const back = redirectTo ?? safeRedirectPath(url.pathname + url.search) ?? "/";
  throw redirect(back, { headers: { "Set-Cookie": await toastHeader({ kind: "error", message }) } });
}

/**
 * A download (the CSV exports) from a page of another organization than the active one downloads
 * nothing: its link or form names the page's organization, and the browser goes back to the page, now
 * the active organization's, saying why. Otherwise a tab left open would save another organization's
 * ledger under the name of the one it showed.
 */
export async function refuseStaleDownload(request: Request, session: OrgSession, page: string): Promise<void> {
  const shown = namedOrganization(new URL(request.url).searchParams.get(PAGE_ORGANIZATION_FIELD));
  if (shown === null) return;
  const message = staleOrganizationMessage(shown, session, "Nothing was downloaded");
  if (message) throw redirect(page, { headers: { "Set-Cookie": await toastHeader({ kind: "error", message }) } });
}

const NO_ORGANIZATION_LEFT = "Nothing was sent: you are no longer a member of the organization this page was for.";

/** The same for the console's resource routes, which answer JSON: the refusal's message, or null. */
export async function staleOrganizationRefusal(request: Request, api: PlatformClient): Promise<string | null> {
  const shown = namedOrganization(request.headers.get(PAGE_ORGANIZATION_HEADER));
  if (shown === null) return null;
  const session = await loadSession(api);
  if (!session.valid) return null;
  // Removed from the page's organization, with no other left: the page is for nobody's organization now.
  if (!session.activeOrganization) return NO_ORGANIZATION_LEFT;
  const refused = staleOrganizationMessage(shown, session as OrgSession, "Nothing was sent");
  if (!refused) api.expectOrganization(shown);
  return refused;
}
