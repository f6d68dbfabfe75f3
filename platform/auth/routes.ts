import { Hono } from "hono";
import type { Context } from "hono";
import { getConnInfo } from "@hono/node-server/conninfo";
import { z } from "zod";
import type { Ok, Session } from "@contract/session";
import { switchOrganizationSchema } from "@contract/session";
import { isDevSignin, providerNames } from "../config";
import type { ProviderName } from "../config";
import type { PlatformEnv } from "../context";
import { PlatformError } from "../http/errors";
import { isLoopbackHost, publicOrigin } from "../http/hosts";
import { isStorableEmail } from "../http/names";
import { signedIn } from "../http/middleware";
import { valid } from "../http/validate";
import { oauthProvider } from "../providers/oauth";
import type { OAuthProvider } from "../providers/oauth";
import { hasPaymentMethod, joinOrganization } from "../orgs/service";
import { clearSessionCookie, readSessionCookie, takeOAuthFlow, writeOAuthFlow, writeSessionCookie } from "./cookies";
import { devAuthorizeForm, devAuthorizePage, devProvider, issueDevCode } from "./dev";
import { shareResolution } from "./shared-sessions";
import { endSession, resolveSession, setActiveOrganization, startSession, switchOrganization, upsertUser } from "./service";
import { consumeState, rememberState } from "./states";
import { randomToken } from "./tokens";
import { recordSignIn } from "../audit/record";
import { admitJoin, limitSignin, recordJoinFailure, TooManyRequests, tooManyResponse } from "../ratelimit/limits";
import { isLoopbackAddress } from "../ratelimit/address";

type Ctx = Context<PlatformEnv>;

/** The console's origin (configured, never the request's own Host: decision 0083). */
function origin(c: Ctx): string {
  return publicOrigin(c.var.deps.config, c.req.url);
}

function provider(c: Ctx, name: ProviderName): OAuthProvider | null {
  const { config } = c.var.deps;
  if (isDevSignin(config)) return devProvider(c.var.deps, name, origin(c));
  const settings = config.oauth[name];
  return settings ? oauthProvider(name, settings) : null;
}

/**
 * Development sign-in answers loopback callers only, unless the operator allowed others: the peer is
 * loopback and the browser named the server by a loopback name, so a DNS-rebinding page (evil.example
 * resolving to 127.0.0.1) is refused. Not by APP_ORIGIN's public name: a proxy or TLS terminator on this
 * machine that names no client (a TCP relay, nginx without X-Forwarded-For) would pass for this machine.
 */
function devSigninAllowed(c: Ctx): boolean {
  if (c.var.deps.config.allowDevSignin) return true;
  let peer: string | undefined;
  try {
    peer = getConnInfo(c).remote.address;
  } catch {
    peer = undefined; // an in-process call (tests, the console's own server): there is no remote peer
  }
  // A proxy on this machine is a loopback peer too: whoever it relays must be this machine as well, or
  // anyone reaching the proxy could sign in as anyone (decision 0100).
  if (![peer, ...relayedAddresses(c)].every((address) => !address || isLoopbackAddress(address))) return false;
  if (peer === undefined) return true;
  // The node adapter builds the URL from the Host header.
  return isLoopbackHost(new URL(c.req.url).host);
}

/** The client addresses proxies say they relayed: `X-Forwarded-For`, `X-Real-IP`, and `Forwarded`'s `for=`. */
function relayedAddresses(c: Ctx): string[] {
  const listed = [c.req.header("x-forwarded-for"), c.req.header("x-real-ip")].flatMap((header) => header?.split(",") ?? []);
  const forwarded = [...(c.req.header("forwarded") ?? "").matchAll(/for=("?)\[?([^\]";,]*)/gi)].map((m) => m[2]);
  // An address that does not parse ("unknown", an obfuscated name) is not this machine either.
  return [...listed, ...forwarded].map((address) => address.trim()).map((address) => address || "unknown");
}

/** The development sign-in page exists only in that mode, and only for this machine unless allowed. */
function devSigninOpen(c: Ctx): void {
  if (!isDevSignin(c.var.deps.config)) throw new PlatformError(404, "Development sign-in is off");
  if (!devSigninAllowed(c)) throw new PlatformError(403, "Development sign-in is only available on this machine");
}

function loginError(c: Ctx, code: string) {
  return c.redirect(`/login?error=${code}`, 302);
}

/**
 * A sign-in start or callback past its rate limit: a browser that navigated there gets the sign-in page
 * with the reason, as for any other sign-in failure; a program gets the 429 with Retry-After.
 */
function signinLimited(c: Ctx, wait: number) {
  if (c.req.header("sec-fetch-mode") === "navigate" || c.req.header("accept")?.includes("text/html")) return loginError(c, "signin_rate_limited");
  return tooManyResponse(c, new TooManyRequests(wait, `Too many sign-in attempts. Try again in ${wait} s.`));
}

const providerParam = z.object({ provider: z.enum(providerNames) });
// The sign-in start matches the provider names alone, so another word (`GET /auth/logout`, a POST's
// path) is a route not found, 404, rather than a provider refused.
const PROVIDER_START = `/:provider{(?:${providerNames.join("|")})}`;

export const authRoutes = new Hono<PlatformEnv>()
  .get("/session", async (c) => {
    const id = readSessionCookie(c);
    const resolution = resolveSession(c.var.deps, id);
    shareResolution(c, id, resolution);
    const session = await resolution;
    if (!session) return c.json<Session>({ valid: false });
    return c.json<Session>({
      valid: true,
      user: session.user,
      organizations: session.organizations.map(({ id, name }) => ({ id, name })),
      activeOrganization: session.active
        ? { id: session.active.id, name: session.active.name, hasPaymentMethod: await hasPaymentMethod(c.var.deps, session.active.id) }
        : null,
      activeRole: session.active?.role ?? null,
    });
  })
  .get("/providers", (c) => c.json({ devSignin: isDevSignin(c.var.deps.config) }))
  .post("/logout", async (c) => {
    const id = readSessionCookie(c);
    if (id) await endSession(c.var.deps, id);
    clearSessionCookie(c);
    return c.json<Ok>({ ok: true });
  })
  .post("/switch", signedIn, valid("json", switchOrganizationSchema), async (c) => {
    await switchOrganization(c.var.deps, c.var.caller, c.req.valid("json").organizationId);
    return c.json<Ok>({ ok: true });
  })
  .post("/join/:code", signedIn, valid("param", z.object({ code: z.string() })), async (c) => {
    const { deps, caller } = c.var;
    let org;
    try {
      await admitJoin(c, deps, caller.userId);
      org = await joinOrganization(deps, caller.userId, c.req.valid("param").code);
    } catch (error) {
      if (error instanceof TooManyRequests) return tooManyResponse(c, error);
      if (error instanceof PlatformError && error.status === 404) await recordJoinFailure(deps, caller.userId);
      throw error;
    }
    await setActiveOrganization(c.var.deps, c.var.caller.sessionHash, org.id);
    return c.json(org);
  })
  .get("/dev/authorize", (c) => {
    devSigninOpen(c);
    return c.html(devAuthorizePage(c.req.query()));
  })
  .post("/dev/authorize", async (c) => {
    devSigninOpen(c);
    const parsed = await c.req.parseBody().catch(() => null);
    if (!parsed) throw new PlatformError(400, "Malformed form body");
    const body = Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]));
    const form = devAuthorizeForm.safeParse(body);
    if (!form.success) {
      return c.html(devAuthorizePage(body, form.error.issues[0]?.message ?? "Invalid request", body), 400);
    }
    return c.redirect(await issueDevCode(c.var.deps, form.data, origin(c)), 302);
  })
  .get(PROVIDER_START, valid("param", providerParam), async (c) => {
    const name = c.req.valid("param").provider;
    const idp = provider(c, name);
    if (!idp) return loginError(c, `${name}_unavailable`);
    const wait = await limitSignin(c, "start", c.var.deps);
    if (wait) return signinLimited(c, wait);
    const state = randomToken(24);
    const verifier = randomToken(32);
    await rememberState(c.var.deps, state);
    await writeOAuthFlow(c, { provider: name, state, verifier });
    return c.redirect(idp.authorizationURL(`${origin(c)}/api/v1/auth/${name}/callback`, state, verifier).toString(), 302);
  })
  .get(`${PROVIDER_START}/callback`, valid("param", providerParam), async (c) => {
    const name = c.req.valid("param").provider;
    const wait = await limitSignin(c, "callback", c.var.deps);
    if (wait) return signinLimited(c, wait);
    const flow = await takeOAuthFlow(c);
    const { code, state, error } = c.req.query();
    if (error) return loginError(c, "signin_denied");
    if (!flow || flow.provider !== name || !state || state !== flow.state || !code) return loginError(c, "signin_state");
    const idp = provider(c, name);
    if (!idp) return loginError(c, `${name}_unavailable`);
    try {
      const identity = await idp.exchange(`${origin(c)}/api/v1/auth/${name}/callback`, code, flow.verifier);
      // An address with control or bidi characters, or longer than an address can be, is none we can use.
      if (!isStorableEmail(identity.email)) return loginError(c, "signin_no_email");
      // The state is spent once on the server, whatever flow cookie the browser replays (decision 0083);
      // after the exchange, so a replayed spent code still reads as one.
      if (!(await consumeState(c.var.deps, state))) return loginError(c, "signin_state");
      const userId = await upsertUser(c.var.deps, identity);
      writeSessionCookie(c, await startSession(c.var.deps, userId, readSessionCookie(c)));
      await recordSignIn(c.var.deps, userId, name);
      return c.redirect("/login?login_success=1", 302);
    } catch (cause) {
      console.warn(`Sign-in with ${name} failed:`, cause instanceof Error ? cause.message : cause);
      return loginError(c, cause instanceof PlatformError ? "signin_code" : "signin_failed");
    }
  });
