import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { grantSystemAdmin, upsertUser } from "../../platform/auth/service";
import { startFakeOAuthProvider } from "../fakes/oauth-provider";
import { SESSION_TTL_MS } from "../../platform/auth/cookies";
import { ORGANIZATION_CHANGED } from "@contract/session";
import type { Harness } from "./harness";
import { cookiesOf, createHarness, ORIGIN } from "./harness";

let h: Harness;
afterEach(() => h?.close());

/** Follows the development sign-in round trip by hand, returning each step's response. */
async function devRoundTrip(harness: Harness, provider = "google") {
  const start = await harness.fetch(`/auth/${provider}`);
  const flow = cookiesOf(start);
  const authorize = new URL(start.headers.get("location")!);
  const form = new URLSearchParams({ ...Object.fromEntries(authorize.searchParams), name: "Ada", email: "ada@example.test" });
  const issued = await harness.fetch("/auth/dev/authorize", { method: "POST", body: form, headers: { "content-type": "application/x-www-form-urlencoded" } });
  return { start, flow, authorize, issued, callback: new URL(issued.headers.get("location")!) };
}

describe("development sign-in", () => {
  it("shows the authorize page with Name, Email and Authorize, and signs in through the callback", async () => {
    h = await createHarness();
    const { start, authorize, flow, callback } = await devRoundTrip(h);
    expect(start.status).toBe(302);
    expect(authorize.pathname).toBe("/api/v1/auth/dev/authorize");
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    const page = await (await h.fetch(`/auth/dev/authorize${authorize.search}`)).text();
    expect(page).toContain('<label for="name">Name</label>');
    expect(page).toContain('<label for="email">Email</label>');
    expect(page).toContain(">Authorize</button>");
    expect(page).toMatch(/anyone who can reach it can sign in as anyone/i);

    const done = await h.fetch(`/auth/google/callback${callback.search}`, { cookie: flow });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/login?login_success=1");
    const sid = done.headers.getSetCookie().find((c) => c.startsWith("sid="))!;
    expect(sid).toMatch(/HttpOnly/i);
    expect(sid).toMatch(/SameSite=Lax/i);
    expect(sid).toMatch(/Path=\//);
    const session = await (await h.fetch("/auth/session", { cookie: sid.split(";")[0] })).json();
    expect(session).toMatchObject({ valid: true, user: { name: "Ada", email: "ada@example.test" } });
  });

  it("stores a user's name as it reads: no bidi or control characters, the email when nothing visible is left", async () => {
    h = await createHarness();
    const nameOf = async (name: string, email: string) => {
      const { cookie } = await h.signIn(name, email);
      return (await (await h.fetch("/auth/session", { cookie })).json()).user.name;
    };
    expect(await nameOf("Alice\u202e nimda", "alice@example.test")).toBe("Alice nimda");
    expect(await nameOf("\u200b\u2066 \u2069", "blank@example.test")).toBe("blank@example.test");
  });

  it("says in its own words what is wrong with a name or email too long, and the inputs stop there first", async () => {
    h = await createHarness();
    const start = await h.fetch("/auth/google");
    const authorize = new URL(start.headers.get("location")!);
    const page = await (await h.fetch(`/auth/dev/authorize${authorize.search}`)).text();
    expect(page).toMatch(/<input id="email"[^>]* maxlength="200"/);
    for (const [name, email, error] of [
      ["Ada", `${"a".repeat(250)}@example.test`, "Enter an email of at most 200 characters"],
      ["A".repeat(101), "ada@example.test", "Enter a name of at most 100 characters"],
    ]) {
      const form = new URLSearchParams({ ...Object.fromEntries(authorize.searchParams), name, email });
      const refused = await h.fetch("/auth/dev/authorize", { method: "POST", body: form, headers: { "content-type": "application/x-www-form-urlencoded" } });
      const text = await refused.text();
      expect(refused.status).toBe(400);
      expect(text).toContain(error);
      expect(text).not.toContain("String must contain");
    }
  });

  it("accepts each code once: a replayed code signs nobody in", async () => {
    h = await createHarness();
    const { flow, callback, start } = await devRoundTrip(h);
    await h.fetch(`/auth/google/callback${callback.search}`, { cookie: flow });
    // A second attempt with a fresh flow cookie for the same state still fails: the code is spent.
    const again = await h.fetch(`/auth/google/callback${callback.search}`, { cookie: cookiesOf(start) });
    expect(again.headers.get("location")).toBe("/login?error=signin_code");
    expect(again.headers.getSetCookie().some((c) => c.startsWith("sid=") && !c.startsWith("sid=;"))).toBe(false);
  });

  it("refuses a callback with a wrong or missing state", async () => {
    h = await createHarness();
    const { flow, callback } = await devRoundTrip(h);
    const wrong = new URLSearchParams(callback.search);
    wrong.set("state", "not-the-state-we-sent-at-all");
    expect((await h.fetch(`/auth/google/callback?${wrong}`, { cookie: flow })).headers.get("location")).toBe("/login?error=signin_state");
    expect((await h.fetch(`/auth/google/callback${callback.search}`)).headers.get("location")).toBe("/login?error=signin_state");
  });

  it("refuses a redirect URI other than its own callback", async () => {
    h = await createHarness();
    const start = await h.fetch("/auth/github");
    const authorize = new URL(start.headers.get("location")!);
    const params = { ...Object.fromEntries(authorize.searchParams), redirect_uri: "http://evil.example/callback", name: "Eve", email: "eve@example.test" };
    const issued = await h.fetch("/auth/dev/authorize", {
      method: "POST",
      body: new URLSearchParams(params),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(issued.status).toBe(400);
  });

  it("makes the first user ever the system admin, and nobody after", async () => {
    h = await createHarness();
    const first = await h.signIn();
    const second = await h.signIn();
    const a = await (await first.call("GET", "/auth/session")).json();
    const b = await (await second.call("GET", "/auth/session")).json();
    expect(a.activeOrganization).toMatchObject({ id: 1, name: "System" });
    expect(a.activeRole).toBe("admin");
    expect(b.activeOrganization).toBeNull();
  });

  it("makes one system admin of two people signing in at once on a fresh install", async () => {
    h = await createHarness();
    const identity = (name: string) => ({ provider: "google", subject: name, name, email: `${name}@example.test`, emailVerified: true }) as const;
    await Promise.all([upsertUser(h.deps, identity("ada")), upsertUser(h.deps, identity("bob"))]);
    const admins = await h.deps.db.selectFrom("memberships").select("user_id").where("org_id", "=", 1).where("role", "=", "admin").execute();
    expect(admins).toHaveLength(1);
  });

  it("signs the same person in from two tabs at once, as one user", async () => {
    h = await createHarness();
    for (let round = 0; round < 3; round += 1) {
      const tabs = await Promise.all([devRoundTrip(h), devRoundTrip(h)]);
      const done = await Promise.all(tabs.map(({ callback, flow }) => h.fetch(`/auth/google/callback${callback.search}`, { cookie: flow })));
      expect(done.map((r) => r.headers.get("location"))).toEqual(["/login?login_success=1", "/login?login_success=1"]);
    }
    expect(await h.deps.db.selectFrom("users").select("id").where("email", "=", "ada@example.test").execute()).toHaveLength(1);
  });

  it("is off when a provider is configured", async () => {
    h = await createHarness({
      oauth: {
        github: {
          clientId: "x",
          clientSecret: "y",
          authorizationEndpoint: "http://127.0.0.1:9/a",
          tokenEndpoint: "http://127.0.0.1:9/t",
          userEndpoint: "http://127.0.0.1:9",
        },
      },
    });
    expect((await h.fetch("/auth/dev/authorize")).status).toBe(404);
    expect(await (await h.fetch("/auth/providers")).json()).toEqual({ devSignin: false });
    // The provider without credentials answers with a redirect to /login and a clear error.
    const google = await h.fetch("/auth/google");
    expect(google.status).toBe(302);
    expect(google.headers.get("location")).toBe("/login?error=google_unavailable");
  });

  it("knows no other provider: its sign-in start is a route not found", async () => {
    h = await createHarness();
    expect((await h.fetch("/auth/twitter")).status).toBe(404);
  });
});

describe("sign-in with a real provider (against a local fake)", () => {
  let fake: Awaited<ReturnType<typeof startFakeOAuthProvider>>;
  beforeAll(async () => {
    fake = await startFakeOAuthProvider();
  });
  afterAll(() => fake.close());

  for (const provider of ["google", "github"] as const) {
    it(`signs in with ${provider} using PKCE, keyed by provider and subject`, async () => {
      h = await createHarness({ oauth: { [provider]: fake.config(provider) }, systemAdmins: ["grace@example.test"] });
      const start = await h.fetch(`/auth/${provider}`);
      const authorize = new URL(start.headers.get("location")!);
      expect(authorize.origin).toBe(fake.base);
      expect(authorize.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/api/v1/auth/${provider}/callback`);
      // The fake redirects straight back to the callback.
      const back = await fetch(authorize, { redirect: "manual" });
      const callback = new URL(back.headers.get("location")!);
      const done = await h.fetch(`${callback.pathname.replace("/api/v1", "")}${callback.search}`, { cookie: cookiesOf(start) });
      expect(done.headers.get("location")).toBe("/login?login_success=1");
      const session = await (await h.fetch("/auth/session", { cookie: cookiesOf(done) })).json();
      expect(session.user).toMatchObject({ name: "Grace Hopper", email: "grace@example.test" });
      // A verified email listed in SYSTEM_ADMINS becomes an admin of the system organization.
      expect(session.activeOrganization.id).toBe(1);
      const account = await h.deps.db.selectFrom("oauth_accounts").selectAll().where("provider", "=", provider).executeTakeFirstOrThrow();
      expect(account.subject).toBe("1001");
    });
  }

  it("does not trust the same email from another provider as the same user", async () => {
    h = await createHarness({ oauth: { google: fake.config("google"), github: fake.config("github") } });
    const ids: number[] = [];
    for (const provider of ["google", "github"]) {
      const start = await h.fetch(`/auth/${provider}`);
      const back = await fetch(new URL(start.headers.get("location")!), { redirect: "manual" });
      const callback = new URL(back.headers.get("location")!);
      const done = await h.fetch(`${callback.pathname.replace("/api/v1", "")}${callback.search}`, { cookie: cookiesOf(start) });
      ids.push((await (await h.fetch("/auth/session", { cookie: cookiesOf(done) })).json()).user.id);
    }
    expect(ids[0]).not.toBe(ids[1]);
  });

  it("takes no address with control or bidi characters, or longer than an address can be, and never stores a blank name", async () => {
    h = await createHarness({ oauth: { github: fake.config("github") } });
    const signIn = async (identity: { name: string; email: string }) => {
      fake.state.nextIdentity = { subject: "2002", verified: true, ...identity };
      const start = await h.fetch("/auth/github");
      const back = await fetch(new URL(start.headers.get("location")!), { redirect: "manual" });
      const callback = new URL(back.headers.get("location")!);
      return h.fetch(`${callback.pathname.replace("/api/v1", "")}${callback.search}`, { cookie: cookiesOf(start) });
    };
    try {
      for (const email of ["eve\u202e\u0007@example.test", `eve@${"x".repeat(250)}.test`]) {
        expect((await signIn({ name: "Eve", email })).headers.get("location"), email).toBe("/login?error=signin_no_email");
      }
      // A name whose first hundred characters show nothing (Hangul fillers) is cut to them: the address stands in.
      const done = await signIn({ name: `${"\u3164".repeat(100)}Mallory`, email: "mallory@example.test" });
      expect(done.headers.get("location")).toBe("/login?login_success=1");
      expect((await (await h.fetch("/auth/session", { cookie: cookiesOf(done) })).json()).user.name).toBe("mallory@example.test");
    } finally {
      fake.state.nextIdentity = { subject: "1001", name: "Grace Hopper", email: "grace@example.test", verified: true };
    }
  });

  it("sends the user back to /login with an error when the provider can't be reached", async () => {
    h = await createHarness({ oauth: { google: { ...fake.config("google"), tokenEndpoint: "http://127.0.0.1:9/token" } } });
    const start = await h.fetch("/auth/google");
    const back = await fetch(new URL(start.headers.get("location")!), { redirect: "manual" });
    const callback = new URL(back.headers.get("location")!);
    const done = await h.fetch(`/auth/google/callback${callback.search}`, { cookie: cookiesOf(start) });
    expect(done.headers.get("location")).toBe("/login?error=signin_failed");
  });
});

describe("session, logout and switch", () => {
  it("answers valid:false without a session, and after logout", async () => {
    h = await createHarness();
    expect(await (await h.fetch("/auth/session")).json()).toEqual({ valid: false });
    const user = await h.signIn();
    const out = await user.call("POST", "/auth/logout");
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().some((c) => c.startsWith("sid=;"))).toBe(true);
    // The session was deleted server-side: the old cookie no longer works.
    expect(await (await user.call("GET", "/auth/session")).json()).toEqual({ valid: false });
  });

  it("rotates the session id at sign-in", async () => {
    h = await createHarness();
    const user = await h.signIn("Rita", "rita@example.test");
    const start = await h.fetch("/auth/google", { cookie: user.cookie });
    const authorize = new URL(start.headers.get("location")!);
    const form = new URLSearchParams({ ...Object.fromEntries(authorize.searchParams), name: "Rita", email: "rita@example.test" });
    const issued = await h.fetch("/auth/dev/authorize", { method: "POST", body: form, headers: { "content-type": "application/x-www-form-urlencoded" } });
    const done = await h.fetch(`/auth/google/callback${new URL(issued.headers.get("location")!).search}`, { cookie: `${cookiesOf(start)}; ${user.cookie}` });
    const fresh = cookiesOf(done);
    expect(fresh).toMatch(/^sid=/);
    expect(fresh).not.toBe(user.cookie);
    expect((await (await user.call("GET", "/auth/session")).json()).valid).toBe(false);
  });

  it("switches only to an organization the user belongs to", async () => {
    h = await createHarness();
    const alice = await h.admin("Alice Co");
    const second = await (await alice.call("POST", "/organizations", { name: "Second" })).json();
    const bob = await h.admin("Bob Co");
    expect((await alice.call("POST", "/auth/switch", { organizationId: alice.orgId })).status).toBe(200);
    expect((await (await alice.call("GET", "/auth/session")).json()).activeOrganization.id).toBe(alice.orgId);
    expect((await alice.call("POST", "/auth/switch", { organizationId: second.id })).status).toBe(200);
    expect((await (await alice.call("GET", "/auth/session")).json()).activeOrganization.name).toBe("Second");
    const refused = await alice.call("POST", "/auth/switch", { organizationId: bob.orgId });
    expect(refused.status).toBe(404);
    expect((await alice.call("POST", "/auth/switch", { organizationId: "abc" })).status).toBe(400);
    expect((await h.fetch("/auth/switch", { method: "POST", json: { organizationId: 1 } })).status).toBe(401);
  });

  it("refuses a call naming, as its page's, an organization another tab has since switched away from", async () => {
    h = await createHarness();
    const alice = await h.admin("Alice Co");
    const second = (await (await alice.call("POST", "/organizations", { name: "Second" })).json()) as { id: number };
    await alice.call("POST", "/auth/switch", { organizationId: second.id });
    const tokensOf = () => h.deps.db.selectFrom("api_tokens").select(["is_primary", "secret_hash"]).where("org_id", "=", second.id).execute();
    const before = await tokensOf();
    // The console checked the page (Alice Co) against the session, then another tab switched to Second.
    const named = (organizationId: number, path: string, json: unknown) =>
      h.fetch(path, { method: "POST", cookie: alice.cookie, json, headers: { origin: ORIGIN, "x-page-organization": String(organizationId) } });
    for (const response of [
      await named(alice.orgId, "/organizations/reset-token", {}),
      await named(alice.orgId, "/tokens", { scopes: [], expiresAt: null }),
      await named(alice.orgId, "/chat/completions", { model: "builtin", messages: [{ role: "user", content: "hi" }] }),
    ]) {
      expect(response.status).toBe(409);
      expect(JSON.stringify(await response.json())).toContain(ORGANIZATION_CHANGED);
    }
    // Second's primary token was not reset, and no token was made there.
    expect(await tokensOf()).toEqual(before);

    expect((await named(second.id, "/tokens", { scopes: [], expiresAt: null })).status).toBe(201);
  });

  it("starts a new session in the organization the user last made active, while it is still theirs", async () => {
    h = await createHarness();
    await h.signIn(); // the first user ever joins the system organization
    const rita = await h.signIn("Rita", "rita-resume@example.test");
    const first = await (await rita.call("POST", "/organizations", { name: "First" })).json();
    const second = await (await rita.call("POST", "/organizations", { name: "Second" })).json();
    expect((await rita.call("POST", "/auth/switch", { organizationId: second.id })).status).toBe(200);
    await rita.call("POST", "/auth/logout");
    const again = await h.signIn("Rita", "rita-resume@example.test");
    expect((await (await again.call("GET", "/auth/session")).json()).activeOrganization.name).toBe("Second");
    // Removed from it since: the oldest membership, as before.
    await h.deps.db.deleteFrom("memberships").where("org_id", "=", second.id).execute();
    const third = await h.signIn("Rita", "rita-resume@example.test");
    expect((await (await third.call("GET", "/auth/session")).json()).activeOrganization.id).toBe(first.id);
  });

  it("picks an organization when the active one is gone, so guards never bounce", async () => {
    h = await createHarness();
    await h.signIn(); // the first user ever joins the system organization; keep Alice out of it
    const alice = await h.admin("Alice Co");
    const other = await (await alice.call("POST", "/organizations", { name: "Other" })).json();
    await h.deps.db.deleteFrom("memberships").where("org_id", "=", other.id).execute();
    const session = await (await alice.call("GET", "/auth/session")).json();
    expect(session.activeOrganization.id).toBe(alice.orgId);
  });

  it("acts in the remaining organization on organization calls once the active one is gone", async () => {
    h = await createHarness();
    await h.signIn();
    const alice = await h.admin("Alice Co");
    const other = await (await alice.call("POST", "/organizations", { name: "Other" })).json();
    await h.deps.db.deleteFrom("memberships").where("org_id", "=", other.id).execute();
    const members = await alice.call("GET", "/organizations/members");
    expect(members.status).toBe(200);
    expect((await members.json()).map((m: { email: string }) => m.email)).toEqual([alice.email]);
    await h.deps.db.deleteFrom("memberships").where("user_id", "=", alice.userId).execute();
    const none = await alice.call("GET", "/organizations/members");
    expect(none.status).toBe(403);
    expect(await none.json()).toEqual({ error: "Join or create an organization first" });
  });

  it("refuses organization calls with an expired session", async () => {
    let clock = Date.now();
    h = await createHarness({}, () => clock);
    const alice = await h.admin("Alice Co");
    expect((await alice.call("GET", "/organizations/members")).status).toBe(200);
    clock += SESSION_TTL_MS + 1;
    const expired = await alice.call("GET", "/organizations/members");
    expect(expired.status).toBe(401);
    expect((await h.deps.db.selectFrom("sessions").select("user_id").where("user_id", "=", alice.userId).execute()).length).toBe(0);
  });

  it("lists every organization of the user", async () => {
    h = await createHarness();
    const alice = await h.admin("One");
    await alice.call("POST", "/organizations", { name: "Two" });
    await grantSystemAdmin(h.deps, alice.userId, "command line");
    const session = await (await alice.call("GET", "/auth/session")).json();
    expect(session.organizations.map((o: { name: string }) => o.name).sort()).toEqual(["One", "System", "Two"]);
  });
});

describe("cross-origin requests", () => {
  it("refuses a mutating request whose Origin is another site", async () => {
    h = await createHarness();
    const user = await h.signIn();
    const refused = await h.fetch("/organizations", {
      method: "POST",
      cookie: user.cookie,
      json: { name: "Evil" },
      headers: { origin: "http://evil.example" },
    });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toMatch(/cross-origin/i);
    const sameSite = await h.fetch("/organizations", { method: "POST", cookie: user.cookie, json: { name: "Fine" }, headers: { origin: ORIGIN } });
    expect(sameSite.status).toBe(201);
  });

  it("uses APP_ORIGIN as the allowed origin when set", async () => {
    h = await createHarness({ appOrigin: "https://console.example" });
    const user = await h.signIn();
    expect((await h.fetch("/auth/logout", { method: "POST", cookie: user.cookie, headers: { origin: ORIGIN } })).status).toBe(403);
    expect((await h.fetch("/auth/logout", { method: "POST", cookie: user.cookie, headers: { origin: "https://console.example" } })).status).toBe(200);
  });
});
