import type { AppLoadContext } from "@remix-run/node";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { INVITE_INVALID } from "@contract/orgs";
import type { PlatformRequest } from "~/load-context";
import { platformClient } from "~/platform/client.server";
import type { Harness, Session } from "./harness";
import { createHarness, ORIGIN } from "./harness";

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await h.signIn(); // the first user ever becomes system admin; the tests below are about ordinary users
});
afterEach(async () => {
  vi.restoreAllMocks();
  await h.close();
});

async function invite(session: Session, status: "single-use" | "multi-use" = "single-use") {
  return session.call("POST", "/organizations/invites", { status });
}

describe("POST /organizations/invites: the role matrix", () => {
  it("lets an admin generate single-use and multi-use codes", async () => {
    const admin = await h.admin();
    for (const status of ["single-use", "multi-use"] as const) {
      const response = await invite(admin, status);
      expect(response.status).toBe(201);
      expect((await response.json()).code).toMatch(/^[A-Z2-9]{12}$/);
    }
  });

  it("refuses a member (403), a user without an organization (403) and a signed-out caller (401)", async () => {
    const admin = await h.admin();
    const code = (await (await invite(admin, "multi-use")).json()).code;
    const member = await h.signIn();
    await member.call("POST", `/auth/join/${code}`);
    expect((await invite(member)).status).toBe(403);
    const outsider = await h.signIn();
    expect((await invite(outsider)).status).toBe(403);
    expect((await h.fetch("/organizations/invites", { method: "POST", json: { status: "single-use" } })).status).toBe(401);
  });

  it("refuses an unknown kind with a clear 400", async () => {
    const admin = await h.admin();
    const response = await admin.call("POST", "/organizations/invites", { status: "forever" });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatch(/status/);
  });

  it("makes codes for the admin's active organization only", async () => {
    const admin = await h.admin("Mine");
    const code = (await (await invite(admin)).json()).code;
    const joiner = await h.signIn();
    expect(await (await joiner.call("POST", `/auth/join/${code}`)).json()).toMatchObject({ id: admin.orgId, name: "Mine" });
  });
});

describe("POST /auth/join/{code}", () => {
  it("joins as a member and makes the organization active", async () => {
    const admin = await h.admin("Acme");
    const code = (await (await invite(admin)).json()).code;
    const joiner = await h.signIn();
    const response = await joiner.call("POST", `/auth/join/${code}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: admin.orgId, name: "Acme" });
    const session = await (await joiner.call("GET", "/auth/session")).json();
    expect(session.activeOrganization.id).toBe(admin.orgId);
    expect(session.activeRole).toBe("member");
  });

  it("uses a single-use code once; a multi-use code many times", async () => {
    const admin = await h.admin();
    const single = (await (await invite(admin, "single-use")).json()).code;
    const multi = (await (await invite(admin, "multi-use")).json()).code;
    const [a, b, c] = [await h.signIn(), await h.signIn(), await h.signIn()];
    expect((await a.call("POST", `/auth/join/${single}`)).status).toBe(200);
    const spent = await b.call("POST", `/auth/join/${single}`);
    expect(spent.status).toBe(404);
    expect((await spent.json()).error).toBe("This invite code is invalid or has already been used");
    expect((await b.call("POST", `/auth/join/${multi}`)).status).toBe(200);
    expect((await c.call("POST", `/auth/join/${multi}`)).status).toBe(200);
  });

  it("lets only one of two racing joins use a single-use code", async () => {
    const admin = await h.admin();
    const code = (await (await invite(admin)).json()).code;
    const [a, b] = [await h.signIn(), await h.signIn()];
    const statuses = (await Promise.all([a.call("POST", `/auth/join/${code}`), b.call("POST", `/auth/join/${code}`)])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 404]);
  });

  it("is harmless to join twice, and doesn't spend a code on a member", async () => {
    const admin = await h.admin();
    const code = (await (await invite(admin)).json()).code;
    const joiner = await h.signIn();
    expect((await joiner.call("POST", `/auth/join/${code}`)).status).toBe(200);
    expect((await joiner.call("POST", `/auth/join/${code}`)).status).toBe(200);
    const mine = (await (await invite(admin)).json()).code;
    expect((await admin.call("POST", `/auth/join/${mine}`)).status).toBe(200);
    const session = await (await admin.call("GET", "/auth/session")).json();
    expect(session.activeRole).toBe("admin");
    expect((await (await h.signIn()).call("POST", `/auth/join/${mine}`)).status).toBe(200);
  });

  it("lets a double submit of the join form in: both answers 200, one membership, one use", async () => {
    const admin = await h.admin();
    const code = (await (await invite(admin, "multi-use")).json()).code;
    const joiner = await h.signIn();
    const statuses = (await Promise.all([1, 2, 3].map(() => joiner.call("POST", `/auth/join/${code}`)))).map((r) => r.status);
    expect(statuses).toEqual([200, 200, 200]);
    const row = await h.deps.db.selectFrom("invites").select("use_count").where("code", "=", code).executeTakeFirstOrThrow();
    expect(Number(row.use_count)).toBe(1);
    const members = await h.deps.db
      .selectFrom("memberships")
      .select("user_id")
      .where("org_id", "=", admin.orgId)
      .where("user_id", "=", joiner.userId)
      .execute();
    expect(members).toHaveLength(1);
  });

  it("answers unknown and malformed codes with 404 and a clear error", async () => {
    const joiner = await h.signIn();
    for (const code of ["ABCDEFGHJKMN", "nope", "%20", "x".repeat(80)]) {
      const response = await joiner.call("POST", `/auth/join/${encodeURIComponent(code)}`);
      expect(response.status).toBe(404);
      expect((await response.json()).error).toMatch(/invite code/i);
    }
    expect((await h.fetch("/auth/join/ABCDEFGHJKMN", { method: "POST" })).status).toBe(401);
  });
});

describe("POST /auth/join/{code}: what the logs hold of the code", () => {
  it("writes only its first 4 characters when the join fails on the database or with an unexpected error", async () => {
    const admin = await h.admin();
    const joiner = await h.signIn();
    const { code } = (await (await invite(admin, "multi-use")).json()) as { code: string };
    const logged: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    const selectFrom = h.deps.db.selectFrom.bind(h.deps.db);
    for (const failure of [Object.assign(new Error("SQLITE_BUSY: database is locked"), { code: "SQLITE_BUSY" }), new Error("boom")]) {
      // The join's own read of the code fails; the session's reads before it do not.
      vi.spyOn(h.deps.db, "selectFrom").mockImplementation(((table: never) => {
        if (String(table).startsWith("invites")) throw failure;
        return selectFrom(table);
      }) as never);
      expect((await joiner.call("POST", `/auth/join/${code}`)).status).toBeGreaterThanOrEqual(500);
    }
    expect(logged).toHaveLength(2);
    for (const line of logged) expect(line).toContain(`POST /api/v1/auth/join/${code.slice(0, 4)}…`);
    expect(logged.join("\n")).not.toContain(code);
  });
});

describe("POST /auth/join/{code} from the console's client", () => {
  /** The console's client for a page of `user`, calling this platform in-process as the server does. */
  function consoleClient(user: Session) {
    const platformFetch = async (request: PlatformRequest) => {
      const url = new URL(request.url);
      return h.fetch(url.pathname.replace(/^\/api\/v1/, "") + url.search, { method: request.method, headers: request.headers });
    };
    const page = new Request(`${ORIGIN}/onboarding`, { method: "POST", headers: { cookie: user.cookie, origin: ORIGIN } });
    return platformClient(page, { platformFetch, clientAddress: "203.0.113.9" } as unknown as AppLoadContext);
  }

  it("refuses a code of dots as any wrong code, and counts it toward the wait", async () => {
    const joiner = await h.signIn();
    const api = consoleClient(joiner);
    for (const code of [".", "..", ".", "..", "%2E"]) {
      expect(await api.joinOrganization(code), code).toEqual({ ok: false, status: 404, error: INVITE_INVALID });
    }
    const waiting = await api.joinOrganization("..");
    expect(waiting).toMatchObject({ ok: false, status: 429, error: expect.stringMatching(/^Too many invalid invite codes/) });
  });
});

describe("organization signup", () => {
  it("reports and enforces ORG_SIGNUP_ENABLED", async () => {
    expect(await (await h.fetch("/organizations/config")).json()).toEqual({ orgSignupEnabled: true });
    const closed = await createHarness({ orgSignupEnabled: false });
    expect(await (await closed.fetch("/organizations/config")).json()).toEqual({ orgSignupEnabled: false });
    const user = await closed.signIn();
    const refused = await user.call("POST", "/organizations", { name: "Nope" });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toBe("Organization signup is disabled");
    await closed.close();
  });

  it("needs a session and valid JSON", async () => {
    expect((await h.fetch("/organizations", { method: "POST", json: { name: "X" } })).status).toBe(401);
    const user = await h.signIn();
    const bad = await h.fetch("/organizations", { method: "POST", cookie: user.cookie, body: "{not json", headers: { "content-type": "application/json" } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toHaveProperty("error");
  });
});
