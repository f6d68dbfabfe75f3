import pg from "pg";
import { afterAll } from "vitest";
import { createPlatform } from "../../platform/app";
import { rechargesFinished } from "../../platform/billing/charges";
import type { PlatformConfig } from "../../platform/config";
import type { Deps } from "../../platform/context";
import { migrate, openDatabase } from "../../platform/db";
import type { DB } from "../../platform/db";

export const ORIGIN = "http://console.test";

export interface Harness {
  deps: Deps;
  /**
   * Calls the platform in-process, as the console does. `path` is below /api/v1 unless it starts with
   * /openai; `bindings` are what the console's server passes along (server/index.ts).
   */
  fetch: (path: string, init?: RequestInit & { json?: unknown; cookie?: string; bindings?: object }) => Promise<Response>;
  /** Signs a new user in through development sign-in and returns their session cookie. */
  signIn: (name?: string, email?: string) => Promise<Session>;
  /** A signed-in user who created (and so administers) a fresh organization. */
  admin: (orgName?: string) => Promise<Session & { orgId: number }>;
  /** `user` joins the admin's organization with an invite code (and it becomes their active one). */
  join: (admin: Session, user: Session) => Promise<void>;
  /** The usual cast: the admin of "Acme", Mia Member who joined Acme, and the admin of "Other". */
  team: () => Promise<{ admin: Session & { orgId: number }; member: Session; outsider: Session & { orgId: number } }>;
  close: () => Promise<void>;
}

export interface Session {
  cookie: string;
  userId: number;
  email: string;
  /** A JSON call as this user. */
  call: (method: string, path: string, json?: unknown) => Promise<Response>;
}

let counter = 0;

// Databases of harnesses a test did not close itself are dropped when its file is done.
const unclosed = new Set<() => Promise<void>>();
afterAll(async () => {
  await Promise.all([...unclosed].map((close) => close()));
});

/**
 * A fresh database: in-memory SQLite, or with TEST_DATABASE_URL=postgres://… a new database on that
 * PostgreSQL server (the whole platform suite runs on both: see README).
 */
export async function freshDatabase(): Promise<{ db: DB; close: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const db = openDatabase({ path: ":memory:" });
    return { db, close: () => db.destroy() };
  }
  const name = `t_${process.pid}_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const scoped = new URL(url);
  scoped.pathname = `/${name}`;
  const db = openDatabase({ url: scoped.toString() });
  // Each test's database is dropped with it: a suite run would leave ~1 GB behind otherwise.
  let closing: Promise<void> | undefined;
  const close = () => {
    unclosed.delete(close);
    return (closing ??= db.destroy().then(() => admin(`drop database if exists ${name} with (force)`)));
  };
  unclosed.add(close);
  return { db, close };
}

/** A platform over a fresh database, with development sign-in unless told otherwise. */
export async function createHarness(config: Partial<PlatformConfig> = {}, now: () => number = Date.now): Promise<Harness> {
  const { db, close } = await freshDatabase();
  await migrate(db);
  const deps: Deps = {
    db,
    now,
    config: { sessionSecret: "test-secret-test-secret-test-secret", orgSignupEnabled: true, systemAdmins: [], oauth: {}, allowDevSignin: false, ...config },
  };
  const app = createPlatform(deps);

  const fetch: Harness["fetch"] = async (path, init = {}) => {
    const { json, cookie, bindings, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (cookie) headers.set("cookie", cookie);
    if (json !== undefined) headers.set("content-type", "application/json");
    const url = path.startsWith("/openai") ? `${ORIGIN}${path}` : `${ORIGIN}/api/v1${path}`;
    return app.fetch(new Request(url, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body }), bindings);
  };

  const signIn: Harness["signIn"] = async (name, email) => {
    counter += 1;
    const who = { name: name ?? `User ${counter}`, email: email ?? `user${counter}-${Math.random().toString(36).slice(2, 8)}@example.test` };
    const start = await fetch("/auth/google");
    const flowCookie = cookiesOf(start);
    const authorize = new URL(start.headers.get("location")!);
    const form = new URLSearchParams({ ...Object.fromEntries(authorize.searchParams), ...who });
    const issued = await fetch("/auth/dev/authorize", { method: "POST", body: form, headers: { "content-type": "application/x-www-form-urlencoded" } });
    const callback = new URL(issued.headers.get("location")!);
    const done = await fetch(`/auth/google/callback${callback.search}`, { cookie: flowCookie });
    const cookie = cookiesOf(done)
      .split("; ")
      .filter((c) => c.startsWith("sid="))
      .join("; ");
    if (!cookie) throw new Error(`sign-in failed: ${done.status} ${done.headers.get("location")}`);
    const session = await (await fetch("/auth/session", { cookie })).json();
    return {
      cookie,
      userId: session.user.id,
      email: who.email,
      call: (method, path, json) => fetch(path, { method, cookie, json }),
    };
  };

  const admin: Harness["admin"] = async (orgName = "Acme") => {
    const session = await signIn();
    const response = await session.call("POST", "/organizations", { name: orgName });
    const { id } = await response.json();
    return { ...session, orgId: id };
  };

  const join: Harness["join"] = async (org, user) => {
    const { code } = await (await org.call("POST", "/organizations/invites", { status: "multi-use" })).json();
    const joined = await user.call("POST", `/auth/join/${code}`);
    if (joined.status !== 200) throw new Error(`join failed: ${joined.status} ${await joined.text()}`);
  };

  const team: Harness["team"] = async () => {
    const acme = await admin("Acme");
    const member = await signIn("Mia Member");
    await join(acme, member);
    return { admin: acme, member, outsider: await admin("Other") };
  };

  // As the server's stop does: a recharge started in the background finishes before its database closes.
  const closeAfterRecharges = async () => {
    await rechargesFinished(deps);
    await close();
  };
  return { deps, fetch, signIn, admin, join, team, close: closeAfterRecharges };
}

/** The name=value pairs of a response's Set-Cookie headers, as a Cookie header (deleted ones left out). */
export function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((pair) => !pair.endsWith("="))
    .join("; ");
}
