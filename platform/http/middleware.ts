import { createMiddleware } from "hono/factory";
import { readSessionCookie } from "../auth/cookies";
import { resolveCaller } from "../auth/service";
import { resolvedOnce } from "../auth/shared-sessions";
import type { PlatformEnv } from "../context";
import { ORGANIZATION_CHANGED, PAGE_ORGANIZATION_HEADER } from "@contract/session";
import { SYSTEM_ORG_ID } from "@contract/system";
import { ADMINS_ONLY } from "../orgs/admin-lock";
import { PlatformError } from "./errors";
import { consoleOrigins } from "./hosts";
import { isAllowedOrigin, MUTATING_METHODS } from "./origin";

/** Refuses mutating browser requests from another origin (DESIGN §3). */
export const sameOrigin = createMiddleware<PlatformEnv>(async (c, next) => {
  if (MUTATING_METHODS.has(c.req.method)) {
    const ok = isAllowedOrigin({ origin: c.req.header("origin"), secFetchSite: c.req.header("sec-fetch-site") }, c.req.url, consoleOrigins(c.var.deps.config));
    if (!ok) throw new PlatformError(403, "Cross-origin request refused");
  }
  await next();
});

/** The signed-in caller, with the active organization's membership when there is one. */
export const signedIn = createMiddleware<PlatformEnv>(async (c, next) => {
  const id = readSessionCookie(c);
  const session = await resolvedOnce(c, id, () => resolveCaller(c.var.deps, id));
  if (!session) throw new PlatformError(401, "Not signed in");
  c.set("caller", {
    userId: session.user.id,
    sessionHash: session.sessionHash,
    name: session.user.name,
    email: session.user.email,
    emailVerified: session.user.emailVerified,
  });
  if (session.active) c.set("membership", { orgId: session.active.id, orgName: session.active.name, role: session.active.role });
  await next();
});

/**
 * Every org-scoped call: signed in, with an active organization the caller belongs to, and the one the
 * console's page was for when the call names it (a switch in another tab in between: decision 0139).
 */
export const inOrganization = createMiddleware<PlatformEnv>(async (c, next) => {
  if (!c.var.membership) throw new PlatformError(403, "Join or create an organization first");
  refuseOtherOrganization(c.req.header(PAGE_ORGANIZATION_HEADER), c.var.membership.orgId);
  await next();
});

/** Refuses (409) a call that names, as its page's, another organization than the active one. */
export function refuseOtherOrganization(named: string | undefined, activeId: number): void {
  if (named !== undefined && named !== String(activeId)) throw new PlatformError(409, ORGANIZATION_CHANGED);
}

export const adminOnly = createMiddleware<PlatformEnv>(async (c, next) => {
  if (c.var.membership?.role !== "admin") throw new PlatformError(403, ADMINS_ONLY);
  await next();
});

export const systemOrganization = createMiddleware<PlatformEnv>(async (c, next) => {
  if (c.var.membership?.orgId !== SYSTEM_ORG_ID) throw new PlatformError(403, "Only the system organization can do this");
  await next();
});

/** The headers of an answer that carries a secret (a token's, a live invite code): kept by no cache. */
export const SECRET_ANSWER = { "Cache-Control": "no-store" } as const;
