import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AuditPage } from "@contract/audit";
import type { Member } from "@contract/team";
import type { FakeIdentity } from "../fakes/oauth-provider";
import { startFakeOAuthProvider } from "../fakes/oauth-provider";
import type { Harness } from "./harness";
import { cookiesOf, createHarness } from "./harness";

let h: Harness;
let fake: Awaited<ReturnType<typeof startFakeOAuthProvider>>;
beforeAll(async () => {
  fake = await startFakeOAuthProvider();
});
afterAll(() => fake.close());
afterEach(() => h?.close());

/** Signs in through the fake GitHub as `identity`, whose primary email GitHub lists as verified or not. */
async function signInWithGitHub(identity: FakeIdentity) {
  fake.state.nextIdentity = identity;
  const start = await h.fetch("/auth/github");
  const back = await fetch(new URL(start.headers.get("location")!), { redirect: "manual" });
  const callback = new URL(back.headers.get("location")!);
  const done = await h.fetch(`${callback.pathname.replace("/api/v1", "")}${callback.search}`, { cookie: cookiesOf(start) });
  const cookie = cookiesOf(done)
    .split("; ")
    .filter((c) => c.startsWith("sid="))
    .join("; ");
  const { user } = await (await h.fetch("/auth/session", { cookie })).json();
  return { userId: user.id as number, call: (method: string, path: string, json?: unknown) => h.fetch(path, { method, cookie, json }) };
}

/**
 * Corp, made by Ops (GitHub, ops@corp.test verified), which someone else's GitHub account joined,
 * claiming the same address without proving it.
 */
async function colleagueAndImpostor() {
  h = await createHarness({ oauth: { github: fake.config("github") } });
  const ops = await signInWithGitHub({ subject: "1001", name: "Ops", email: "ops@corp.test", verified: true });
  expect((await ops.call("POST", "/organizations", { name: "Corp" })).status).toBe(201);
  const impostor = await signInWithGitHub({ subject: "2002", name: "Ops", email: "ops@corp.test", verified: false });
  const { code } = await (await ops.call("POST", "/organizations/invites", { status: "multi-use" })).json();
  expect((await impostor.call("POST", `/auth/join/${code}`)).status).toBe(200);
  return { ops, impostor };
}

describe("a member's email as the provider vouched for it", () => {
  it("lists a GitHub member whose primary email GitHub never verified with emailVerified false, a verified one true", async () => {
    const { ops, impostor } = await colleagueAndImpostor();

    const list = (await (await ops.call("GET", "/organizations/members")).json()) as Member[];
    expect(list).toEqual([
      { id: ops.userId, name: "Ops", email: "ops@corp.test", emailVerified: true, role: "admin" },
      { id: impostor.userId, name: "Ops", email: "ops@corp.test", emailVerified: false, role: "member" },
    ]);
    // The same on a searched page and on the one member's answer.
    expect(((await (await ops.call("GET", "/organizations/members?q=corp&limit=10")).json()) as Member[]).map((m) => m.emailVerified)).toEqual([true, false]);
    expect(await (await ops.call("GET", `/organizations/members/${impostor.userId}`)).json()).toMatchObject({ emailVerified: false });
    expect(await (await ops.call("GET", `/organizations/members/${ops.userId}`)).json()).toMatchObject({ emailVerified: true });
  });
});

describe("the audit log's actor, as the provider vouched for their email then", () => {
  it("marks the entries of the account that never proved the address, and the CSV says which", async () => {
    const { ops, impostor } = await colleagueAndImpostor();
    // A sign-in's entry is written for the user who signed in (not the request's caller): looked up.
    await signInWithGitHub({ subject: "2002", name: "Ops", email: "ops@corp.test", verified: false });

    const { entries } = (await (await ops.call("GET", "/audit?actor=ops%40corp.test&limit=50")).json()) as AuditPage;
    const byImpostor = entries.filter((e) => e.actor?.id === impostor.userId);
    const byOps = entries.filter((e) => e.actor?.id === ops.userId);
    expect(byImpostor.map((e) => e.action)).toEqual(expect.arrayContaining(["member.joined", "session.signed_in"]));
    expect(byImpostor.every((e) => e.actor?.emailVerified === false)).toBe(true);
    expect(byOps.length).toBeGreaterThan(0);
    expect(byOps.every((e) => e.actor?.emailVerified === true)).toBe(true);

    const csv = (await (await ops.call("GET", "/audit/export?action=member.joined")).text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(csv[0].endsWith(",address,actor_email_verified")).toBe(true);
    expect(csv.slice(1)).toHaveLength(1);
    expect(csv[1].endsWith(",false")).toBe(true);
  });
});
