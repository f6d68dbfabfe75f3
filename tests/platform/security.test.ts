import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createPlatform } from "../../platform/app";
import type { PlatformConfig } from "../../platform/config";
import type { Deps } from "../../platform/context";
import { migrate, openDatabase } from "../../platform/db";
import { createToken } from "../../platform/tokens/service";
import type { Harness } from "./harness";
import { cookiesOf, createHarness, ORIGIN } from "./harness";

let h: Harness;
afterEach(() => h?.close());

const APP = "http://localhost:3000";
const config: Partial<PlatformConfig> = { appOrigin: APP, port: 3000 };

/** A request as it arrives through the server: a socket peer (getConnInfo) and the browser's Host. */
function fromPeer(url: string, init: RequestInit = {}, peer = "127.0.0.1") {
  const platform = createPlatform(h.deps);
  return platform.fetch(new Request(url, init), { incoming: { socket: { remoteAddress: peer, remotePort: 50000, remoteFamily: "IPv4" } } });
}

describe("the console's origin is configured, never the request's Host", () => {
  it("builds OAuth redirect URIs from APP_ORIGIN, or its loopback equivalent, whatever Host the request names", async () => {
    h = await createHarness(config);
    const forged = await fromPeer("http://evil.example:3000/api/v1/auth/google");
    const authorize = new URL(forged.headers.get("location")!);
    expect(authorize.origin).toBe(APP);
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${APP}/api/v1/auth/google/callback`);
    const loopback = new URL((await fromPeer("http://127.0.0.1:3000/api/v1/auth/github")).headers.get("location")!);
    expect(loopback.searchParams.get("redirect_uri")).toBe("http://127.0.0.1:3000/api/v1/auth/github/callback");
  });

  it("refuses a mutation whose Origin merely matches its own forged Host", async () => {
    h = await createHarness(config);
    const admin = await h.signIn();
    const post = (url: string, origin: string) =>
      fromPeer(url, { method: "POST", headers: { origin, cookie: admin.cookie, "content-type": "application/json" }, body: JSON.stringify({ name: "X" }) });
    expect((await post("http://evil.example:3000/api/v1/organizations", "http://evil.example:3000")).status).toBe(403);
    expect((await post(`${APP}/api/v1/organizations`, APP)).status).toBe(201);
    // Development sign-in mode: the loopback names with the server's port are the console too.
    expect((await post("http://127.0.0.1:3000/api/v1/organizations", "http://127.0.0.1:3000")).status).toBe(201);
    expect((await post("http://[::1]:3000/api/v1/organizations", "http://[::1]:3000")).status).toBe(201);
  });

  it("refuses the DNS-rebinding sign-in: a loopback peer that named the server evil.example", async () => {
    h = await createHarness(config);
    const start = await h.fetch("/auth/google");
    const authorize = new URL(start.headers.get("location")!);
    const rebound = await fromPeer(`http://evil.example:3000/api/v1/auth/dev/authorize${authorize.search}`);
    expect(rebound.status).toBe(403);
    const form = new URLSearchParams({ ...Object.fromEntries(authorize.searchParams), name: "Eve", email: "eve@example.test" });
    const post = await fromPeer("http://evil.example:3000/api/v1/auth/dev/authorize", {
      method: "POST",
      body: form,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(post.status).toBe(403);
    // The same page named by a loopback name, from loopback, is development sign-in as usual.
    expect((await fromPeer(`http://localhost:3000/api/v1/auth/dev/authorize${authorize.search}`)).status).toBe(200);
    // And another peer is refused whatever it names.
    expect((await fromPeer(`http://localhost:3000/api/v1/auth/dev/authorize${authorize.search}`, {}, "192.0.2.7")).status).toBe(403);
  });

  it("refuses development sign-in relayed by a proxy on this machine for someone elsewhere", async () => {
    h = await createHarness(config);
    const authorize = new URL((await h.fetch("/auth/google")).headers.get("location")!);
    const page = `${APP}/api/v1/auth/dev/authorize${authorize.search}`;
    // deploy/nginx.conf on the same host: a loopback peer, the configured name, and the client it relays.
    const relays: Record<string, string>[] = [
      { "x-forwarded-for": "192.0.2.2" },
      { "x-forwarded-for": "127.0.0.1, 192.0.2.2" },
      { "x-real-ip": "192.0.2.2" },
      { forwarded: 'for="[2001:db8::1]:4711"' },
      { forwarded: "for=unknown" },
    ];
    for (const relayed of relays) expect((await fromPeer(page, { headers: relayed })).status, JSON.stringify(relayed)).toBe(403);
    // A browser on this machine, through that proxy or not, still signs in.
    expect((await fromPeer(page, { headers: { "x-forwarded-for": "127.0.0.1" } })).status).toBe(200);
    expect((await fromPeer(page)).status).toBe(200);
    // And in-process calls carry the browser's address: from elsewhere, refused.
    expect((await h.fetch(`/auth/dev/authorize${authorize.search}`, { headers: { "x-forwarded-for": "192.0.2.2" } })).status).toBe(403);
  });

  it("refuses development sign-in through a proxy on this machine that names no client, by the public origin's name", async () => {
    h = await createHarness({ appOrigin: "https://console.example.com", port: 3000 });
    const authorize = new URL((await h.fetch("/auth/google")).headers.get("location")!);
    // A TCP relay or TLS terminator (stunnel, HAProxy in TCP mode, nginx without proxy_set_header): a
    // loopback peer, the public Host, and no header naming whom it relays.
    expect((await fromPeer(`https://console.example.com/api/v1/auth/dev/authorize${authorize.search}`)).status).toBe(403);
    // A browser on this machine naming it by a loopback name still signs in.
    expect((await fromPeer(`http://localhost:3000/api/v1/auth/dev/authorize${authorize.search}`)).status).toBe(200);
  });
});

/** A body that arrives in chunks with no Content-Length, as `Transfer-Encoding: chunked` does. */
function chunked(totalBytes: number, chunk = 64 * 1024): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= totalBytes) return controller.close();
      const size = Math.min(chunk, totalBytes - sent);
      sent += size;
      controller.enqueue(new Uint8Array(size).fill(0x20));
    },
  });
}

describe("body limits, enforced while reading", () => {
  it("answers 413 to a JSON call over 64 KB, declared or chunked", async () => {
    h = await createHarness();
    const admin = await h.signIn();
    const big = JSON.stringify({ name: "x".repeat(70 * 1024) });
    const declared = await h.fetch("/organizations", {
      method: "POST",
      cookie: admin.cookie,
      body: big,
      headers: { "content-type": "application/json", "content-length": String(big.length) },
    });
    expect(declared.status).toBe(413);
    expect((await declared.json()).error).toMatch(/Request body too large: at most 64 KB/);
    const streamed = await h.fetch("/organizations", {
      method: "POST",
      cookie: admin.cookie,
      body: chunked(70 * 1024),
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it("stops reading a chunked body at the limit instead of reading all of it", async () => {
    h = await createHarness();
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const response = await h.fetch("/billing/webhook", { method: "POST", body: endless, duplex: "half" } as RequestInit);
    expect(response.status).toBe(413);
    // An endless body, refused after a couple of chunks: nothing buffered it whole.
    expect(pulled).toBeLessThan(10);
  });

  it("bounds the Stripe webhook at 64 KB before its signature is checked", async () => {
    h = await createHarness();
    const response = await h.fetch("/billing/webhook", { method: "POST", body: "x".repeat(65 * 1024), headers: { "stripe-signature": "t=1,v1=0" } });
    expect(response.status).toBe(413);
  });

  it("allows chat 8 MB, answering above that in the OpenAI error shape", async () => {
    h = await createHarness();
    const admin = await h.admin();
    const nine = await h.fetch("/chat/completions", {
      method: "POST",
      cookie: admin.cookie,
      body: chunked(9 * 1024 * 1024),
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    expect(nine.status).toBe(413);
    expect((await nine.json()).error).toMatchObject({ message: expect.stringMatching(/at most 8 MB/), type: "invalid_request_error" });
    const openai = await h.fetch("/openai/v1/chat/completions", {
      method: "POST",
      body: chunked(9 * 1024 * 1024),
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    expect(openai.status).toBe(413);
    // 900 KB of chat passes the body limit (and, under the 1,000,000-character limit of spend control, fails later on its content, not its size).
    const message = JSON.stringify({ model: "no-such-model", messages: [{ role: "user", content: "x".repeat(900 * 1024) }] });
    expect(
      (await h.fetch("/chat/completions", { method: "POST", cookie: admin.cookie, body: message, headers: { "content-type": "application/json" } })).status,
    ).not.toBe(413);
  });
});

describe("malformed bodies are 400, never 500", () => {
  it("answers 400 to broken JSON and a broken multipart body, 415 to a wrong content type", async () => {
    h = await createHarness();
    const admin = await h.admin();
    const send = (p: string, body: string, type: string) => h.fetch(p, { method: "POST", cookie: admin.cookie, body, headers: { "content-type": type } });
    expect((await send("/organizations", "{", "application/json")).status).toBe(400);
    expect((await send("/organizations", "name=Acme", "text/plain")).status).toBe(415);
    expect((await send("/tokens", '{"scopes":', "application/json")).status).toBe(400);
    expect((await send("/organizations/invites", "not json", "application/json")).status).toBe(400);
    expect((await send("/chat/completions", "{", "application/json")).status).toBe(400);
    const broken = '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda';
    expect((await send("/auth/dev/authorize", broken, "multipart/form-data; boundary=b")).status).toBe(400);
    expect((await send("/auth/dev/authorize", broken, "multipart/form-data")).status).toBe(400);
  });
});

describe("strict input", () => {
  it("refuses a token expiry more than 10 years ahead (and 1e300)", async () => {
    let clock = Date.UTC(2026, 0, 1);
    h = await createHarness({}, () => clock);
    const admin = await h.admin();
    const create = (expiresAt: number) => admin.call("POST", "/tokens", { scopes: ["chat"], expiresAt });
    expect((await create(1e300)).status).toBe(400);
    const far = await create(clock + 11 * 365 * 24 * 3600 * 1000);
    expect(far.status).toBe(400);
    expect((await far.json()).error).toBe("The expiry must be at most 10 years ahead");
    expect((await create(clock + 9 * 365 * 24 * 3600 * 1000)).status).toBe(201);
    clock += 1;
  });

  it("trims and normalizes organization names, and refuses invisible-only ones, on create and rename", async () => {
    h = await createHarness();
    // The first user to sign in is the system admin, active in organization 1.
    const system = await h.signIn();
    const admin = await h.signIn();
    // (A NUL is refused as such before: tests/platform/nul-characters.test.ts.)
    for (const name of ["\u200B\u200B", "\u202E\u2066", "\u0001\u0007", " \u3000 ", "\u3164", "\u200D"]) {
      const refused = await admin.call("POST", "/organizations", { name });
      expect(refused.status).toBe(400);
      expect((await refused.json()).error).toMatch(/Organization name is required/);
    }
    const created = await (await admin.call("POST", "/organizations", { name: "  Cafe\u0301\u202E\n " })).json();
    expect(created.name).toBe("Caf\u00e9");
    // The system editor's rename obeys the same rule.
    expect((await system.call("PUT", `/system/organizations/${created.id}`, { name: "\u200B" })).status).toBe(400);
    const renamed = await system.call("PUT", `/system/organizations/${created.id}`, { name: " Acme\u2067 " });
    expect((await renamed.json()).name).toBe("Acme");
  });
});

describe("OAuth state is single-use on the server", () => {
  it("refuses a replayed flow cookie with a fresh code", async () => {
    h = await createHarness();
    const start = await h.fetch("/auth/google");
    const flow = cookiesOf(start);
    const authorize = new URL(start.headers.get("location")!);
    const codeFor = async () => {
      const form = new URLSearchParams({ ...Object.fromEntries(authorize.searchParams), name: "Ada", email: "ada@example.test" });
      const issued = await h.fetch("/auth/dev/authorize", { method: "POST", body: form, headers: { "content-type": "application/x-www-form-urlencoded" } });
      return new URL(issued.headers.get("location")!).search;
    };
    const first = await h.fetch(`/auth/google/callback${await codeFor()}`, { cookie: flow });
    expect(first.headers.get("location")).toBe("/login?login_success=1");
    const replay = await h.fetch(`/auth/google/callback${await codeFor()}`, { cookie: flow });
    expect(replay.headers.get("location")).toBe("/login?error=signin_state");
    expect(replay.headers.getSetCookie().some((c) => c.startsWith("sid=") && !c.startsWith("sid=;"))).toBe(false);
  });

  it("refuses a state the server never issued, even in a validly signed cookie's shape", async () => {
    h = await createHarness();
    const start = await h.fetch("/auth/google");
    const authorize = new URL(start.headers.get("location")!);
    await h.deps.db.deleteFrom("oauth_states").execute();
    const form = new URLSearchParams({ ...Object.fromEntries(authorize.searchParams), name: "Ada", email: "ada@example.test" });
    const issued = await h.fetch("/auth/dev/authorize", { method: "POST", body: form, headers: { "content-type": "application/x-www-form-urlencoded" } });
    const done = await h.fetch(`/auth/google/callback${new URL(issued.headers.get("location")!).search}`, { cookie: cookiesOf(start) });
    expect(done.headers.get("location")).toBe("/login?error=signin_state");
  });
});

describe("rate limits", () => {
  const from = (address: string) => ({ "x-forwarded-for": address });

  it("limits sign-in starts and callbacks to 20 a minute per client address", async () => {
    let clock = Date.now();
    h = await createHarness({}, () => clock);
    for (let i = 0; i < 20; i++) expect((await h.fetch("/auth/google", { headers: from("203.0.113.9") })).status).toBe(302);
    const limited = await h.fetch("/auth/github", { headers: from("203.0.113.9") });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect((await limited.json()).error).toMatch(/Too many sign-in attempts/);
    expect((await h.fetch("/auth/google", { headers: from("203.0.113.10") })).status).toBe(302);
    for (let i = 0; i < 20; i++) expect((await h.fetch("/auth/google/callback?code=x&state=y", { headers: from("203.0.113.9") })).status).toBe(302);
    expect((await h.fetch("/auth/google/callback?code=x&state=y", { headers: from("203.0.113.9") })).status).toBe(429);
    clock += 60_001;
    expect((await h.fetch("/auth/google", { headers: from("203.0.113.9") })).status).toBe(302);
  });

  it("counts an IPv6 client by its /64, and an IPv4-mapped address as the IPv4 address", async () => {
    h = await createHarness();
    // One client's /64 offers it 2^64 addresses: a new one per request is still the same client.
    for (let i = 1; i <= 20; i++) expect((await h.fetch("/auth/google", { headers: from(`2001:db8:1:2::${i.toString(16)}`) })).status).toBe(302);
    expect((await h.fetch("/auth/google", { headers: from("2001:db8:1:2:ffff:ffff:ffff:ffff") })).status).toBe(429);
    expect((await h.fetch("/auth/google", { headers: from("2001:db8:1:3::1") })).status).toBe(302);
    for (let i = 0; i < 20; i++) expect((await h.fetch("/auth/google", { headers: from("203.0.113.20") })).status).toBe(302);
    expect((await h.fetch("/auth/google", { headers: from("::ffff:203.0.113.20") })).status).toBe(429);
  });

  it("sends a browser that hits the sign-in limit back to the sign-in page with the reason, not a JSON body", async () => {
    h = await createHarness();
    const navigate = { ...from("203.0.113.11"), "sec-fetch-mode": "navigate", accept: "text/html,application/xhtml+xml" };
    for (let i = 0; i < 20; i++) expect((await h.fetch("/auth/google", { headers: navigate })).status).toBe(302);
    const limited = await h.fetch("/auth/google", { headers: navigate });
    expect(limited.status).toBe(302);
    expect(limited.headers.get("location")).toBe("/login?error=signin_rate_limited");
    for (let i = 0; i < 20; i++) await h.fetch("/auth/google/callback?code=x&state=y", { headers: navigate });
    const callback = await h.fetch("/auth/google/callback?code=x&state=y", { headers: navigate });
    expect(callback.headers.get("location")).toBe("/login?error=signin_rate_limited");
  });

  it("limits invite-code joins: a growing wait after 5 failures, per user", async () => {
    let clock = Date.now();
    h = await createHarness({}, () => clock);
    const guesser = await h.signIn();
    const guess = () => h.fetch("/auth/join/ABCDEFGHJKMN", { method: "POST", cookie: guesser.cookie });
    for (let i = 0; i < 5; i++) expect((await guess()).status).toBe(404);
    const waiting = await guess();
    expect(waiting.status).toBe(429);
    expect(waiting.headers.get("retry-after")).toBe("60");
    expect((await waiting.json()).error).toMatch(/Too many invalid invite codes/);
    // Past five failures, each further guess waits a minute...
    for (let i = 0; i < 5; i++) {
      clock += 60_001;
      expect((await guess()).status).toBe(404);
      expect((await guess()).status).toBe(429);
    }
    // ...and from ten failures on, two.
    expect((await guess()).headers.get("retry-after")).toBe("120");
    clock += 120_001;
    expect((await guess()).status).toBe(404);
  });

  it("lets one of several invite-code guesses sent together through once a wait is over, not all of them", async () => {
    let clock = Date.now();
    h = await createHarness({}, () => clock);
    const guesser = await h.signIn();
    const guess = () => h.fetch("/auth/join/ABCDEFGHJKMN", { method: "POST", cookie: guesser.cookie });
    for (let i = 0; i < 5; i++) expect((await guess()).status).toBe(404);
    clock += 60_001;
    const together = await Promise.all([guess(), guess(), guess(), guess(), guess()]);
    expect(together.map((r) => r.status).sort()).toEqual([404, 429, 429, 429, 429]);
    // The one that went on failed: the next try is a minute after it, as one at a time.
    const next = await guess();
    expect(next.status).toBe(429);
    expect(next.headers.get("retry-after")).toBe("60");
  });

  it("does not stretch a window or a wait when the clock steps back", async () => {
    let clock = Date.now();
    h = await createHarness({}, () => clock);
    const from = { "x-forwarded-for": "203.0.113.9" };
    for (let i = 0; i < 20; i++) await h.fetch("/auth/google", { headers: from });
    expect((await h.fetch("/auth/google", { headers: from })).status).toBe(429);
    // An hour back (an NTP step, or a replica whose clock is behind): a new minute's window, not an hour and a minute.
    clock -= 3_600_000;
    expect((await h.fetch("/auth/google", { headers: from })).status).toBe(302);

    const guesser = await h.signIn();
    const guess = () => h.fetch("/auth/join/ABCDEFGHJKMN", { method: "POST", cookie: guesser.cookie });
    for (let i = 0; i < 5; i++) expect((await guess()).status).toBe(404);
    clock -= 24 * 3_600_000;
    const waiting = await guess();
    expect(waiting.status).toBe(429);
    expect(waiting.headers.get("retry-after")).toBe("60");
  });

  it("forgets a user's failed invite codes a day after the last one: the count starts over", async () => {
    let clock = Date.now();
    h = await createHarness({}, () => clock);
    const guesser = await h.signIn();
    const guess = () => h.fetch("/auth/join/ABCDEFGHJKMN", { method: "POST", cookie: guesser.cookie });
    for (let i = 0; i < 5; i++) expect((await guess()).status).toBe(404);
    expect((await guess()).status).toBe(429);
    // A day and a bit later (no purge has run: this install is quiet), four more wrong codes wait for nothing.
    clock += 24 * 3600 * 1000 + 1;
    for (let i = 0; i < 4; i++) expect((await guess()).status).toBe(404);
    expect((await guess()).status).toBe(404);
    expect((await guess()).status).toBe(429);
  });

  it("limits joins to 5 a minute per user and 20 a minute per address", async () => {
    h = await createHarness();
    const admin = await h.admin();
    const { code } = await (await admin.call("POST", "/organizations/invites", { status: "multi-use" })).json();
    const user = await h.signIn();
    for (let i = 0; i < 5; i++) expect((await h.fetch(`/auth/join/${code}`, { method: "POST", cookie: user.cookie })).status).toBe(200);
    const limited = await h.fetch(`/auth/join/${code}`, { method: "POST", cookie: user.cookie });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    const users = await Promise.all(Array.from({ length: 5 }, () => h.signIn()));
    const statuses: number[] = [];
    for (const u of users)
      for (let i = 0; i < 5; i++)
        statuses.push((await h.fetch(`/auth/join/${code}`, { method: "POST", cookie: u.cookie, headers: from("198.51.100.4") })).status);
    // Five users, five tries each, from one address: the address allows 20.
    expect(statuses.slice(19)).toEqual([200, 429, 429, 429, 429, 429]);
  });

  it("marks every answer that carries a secret no-store: new and rolled tokens, the reset token, invite codes", async () => {
    h = await createHarness();
    const admin = await h.admin();
    const noStore = (response: Response) => response.headers.get("cache-control");
    const created = await admin.call("POST", "/tokens", { scopes: ["chat"], expiresAt: null });
    expect(noStore(created)).toBe("no-store");
    const { publicId } = await created.json();
    expect(noStore(await admin.call("POST", `/tokens/${publicId}/roll`, { grace: "none" }))).toBe("no-store");
    expect(noStore(await admin.call("POST", "/organizations/reset-token"))).toBe("no-store");
    expect(noStore(await admin.call("POST", "/organizations/invites", { status: "single-use", expiresAt: null, maxUses: null }))).toBe("no-store");
    expect(noStore(await admin.call("GET", "/organizations/invites"))).toBe("no-store");
  });

  it("limits the organizations one user creates to 10 an hour", async () => {
    h = await createHarness();
    const user = await h.signIn();
    const create = (i: number) => h.fetch("/organizations", { method: "POST", cookie: user.cookie, json: { name: `Org ${i}` }, headers: { origin: ORIGIN } });
    for (let i = 0; i < 10; i++) expect((await create(i)).status).toBe(201);
    const refused = await create(10);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).error).toMatch(/^Too many organizations created: at most 10 an hour\. Try again in \d+ min\.$/);
    // Another user is not held back by it.
    const other = await h.signIn();
    expect((await h.fetch("/organizations", { method: "POST", cookie: other.cookie, json: { name: "Mine" }, headers: { origin: ORIGIN } })).status).toBe(201);
  });

  it("limits /openai/v1 per token when the token has a requests-per-minute limit", async () => {
    h = await createHarness();
    const admin = await h.admin();
    const limitedToken = await createToken(h.deps, admin.orgId, admin.userId, { scopes: ["models:read"], expiresAt: null });
    const freeToken = await createToken(h.deps, admin.orgId, admin.userId, { scopes: ["models:read"], expiresAt: null });
    await h.deps.db.updateTable("api_tokens").set({ rate_limit_rpm: 2 }).where("public_id", "=", limitedToken.publicId).execute();
    const models = (secret: string) => h.fetch("/openai/v1/models", { headers: { authorization: `Bearer ${secret}` } });
    const rate = (response: Response) => ["limit", "remaining", "reset"].map((part) => response.headers.get(`x-ratelimit-${part}-requests`));
    const first = await models(limitedToken.token);
    expect(first.status).toBe(200);
    expect(rate(first)).toEqual(["2", "1", expect.stringMatching(/^\d+s$/)]);
    const second = await models(limitedToken.token);
    expect(second.status).toBe(200);
    expect(rate(second).slice(0, 2)).toEqual(["2", "0"]);
    const limited = await models(limitedToken.token);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(rate(limited)).toEqual(["2", "0", `${limited.headers.get("retry-after")}s`]);
    expect(await limited.json()).toEqual({
      error: { message: expect.stringMatching(/2 requests per minute/), type: "rate_limit_exceeded", param: null, code: "rate_limit_exceeded" },
    });
    const chat = await h.fetch("/openai/v1/chat/completions", {
      method: "POST",
      headers: { authorization: `Bearer ${limitedToken.token}`, "content-type": "application/json" },
      body: "{}",
    });
    expect([401, 403, 429]).toContain(chat.status);
    for (let i = 0; i < 5; i++) expect((await models(freeToken.token)).status).toBe(200);
    // A token without a limit has no limit to report.
    expect(rate(await models(freeToken.token))).toEqual([null, null, null]);
  });
});

/** One database opened twice, as two server processes would: a SQLite file, or a PostgreSQL database. */
async function sharedDatabase() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ratelimit-")), "shared.db");
    return { open: () => openDatabase({ path: file }), drop: async () => fs.rmSync(path.dirname(file), { recursive: true, force: true }) };
  }
  const name = `t_rl_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const scoped = new URL(url);
  scoped.pathname = `/${name}`;
  return {
    open: () => openDatabase({ url: scoped.toString() }),
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name}`);
      await c.end();
    },
  };
}

describe("limits shared across processes", () => {
  it("counts token creations of two platform instances over one database together", async () => {
    const shared = await sharedDatabase();
    const [dbA, dbB] = [shared.open(), shared.open()];
    try {
      await migrate(dbA);
      const base = { sessionSecret: "s".repeat(40), orgSignupEnabled: true, systemAdmins: [], oauth: {}, allowDevSignin: false };
      const a: Deps = { db: dbA, now: Date.now, config: base };
      const b: Deps = { db: dbB, now: Date.now, config: base };
      const org = await dbA
        .insertInto("organizations")
        .values({ name: "Shared", name_search: "shared", created_at: Date.now() })
        .returning("id")
        .executeTakeFirstOrThrow();
      const user = await dbA
        .insertInto("users")
        .values({ name: "Ada", email: "ada@example.test", email_verified: 1, created_at: Date.now() })
        .returning("id")
        .executeTakeFirstOrThrow();
      // Token writes check the caller is still the organization's admin.
      await dbA.insertInto("memberships").values({ org_id: org.id, user_id: user.id, role: "admin", created_at: Date.now() }).execute();
      const input = { scopes: ["chat"], expiresAt: null };
      for (let i = 0; i < 10; i++) {
        await createToken(a, org.id, user.id, input);
        await createToken(b, org.id, user.id, input);
      }
      await expect(createToken(a, org.id, user.id, input)).rejects.toMatchObject({ status: 429 });
      await expect(createToken(b, org.id, user.id, input)).rejects.toMatchObject({ status: 429 });
    } finally {
      await dbA.destroy();
      await dbB.destroy();
      await shared.drop();
    }
  });
});
