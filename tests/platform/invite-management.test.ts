import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Harness, Session } from "./harness";
import { createHarness } from "./harness";

const DAY = 24 * 60 * 60 * 1000;
let clock = Date.now();
let h: Harness;
beforeEach(async () => {
  clock = Date.now();
  h = await createHarness({}, () => clock);
  await h.signIn(); // the first user ever becomes system admin; these tests are about ordinary organizations
});
afterEach(() => h.close());

async function create(admin: Session, body: Record<string, unknown>) {
  const response = await admin.call("POST", "/organizations/invites", body);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as { code: string };
}

async function list(session: Session) {
  return (await (await session.call("GET", "/organizations/invites")).json()) as {
    id: number;
    code: string;
    kind: string;
    createdBy: { name: string };
    createdAt: number;
    uses: number;
    maxUses: number | null;
    expiresAt: number | null;
  }[];
}

const join = (user: Session, code: string) => user.call("POST", `/auth/join/${code}`);

describe("GET /organizations/invites", () => {
  it("lists every active code, newest first, with its kind, maker, time, uses, maximum and expiry", async () => {
    const admin = await h.admin("Acme");
    const single = await create(admin, { status: "single-use" });
    clock += 1000;
    const multi = await create(admin, { status: "multi-use", maxUses: 3, expiresAt: clock + 7 * DAY });
    const invites = await list(admin);
    expect(invites.map((i) => i.code)).toEqual([multi.code, single.code]);
    const session = await (await admin.call("GET", "/auth/session")).json();
    expect(invites[0]).toMatchObject({
      kind: "multi-use",
      uses: 0,
      maxUses: 3,
      expiresAt: clock + 7 * DAY,
      createdAt: clock,
      createdBy: { name: session.user.name },
    });
    expect(invites[1]).toMatchObject({ kind: "single-use", uses: 0, maxUses: 1, expiresAt: null });
  });

  it("counts uses and drops used-up, expired and revoked codes from the list", async () => {
    const admin = await h.admin();
    const single = await create(admin, { status: "single-use" });
    const twice = await create(admin, { status: "multi-use", maxUses: 2 });
    const soon = await create(admin, { status: "multi-use", expiresAt: clock + DAY });
    const unlimited = await create(admin, { status: "multi-use" });
    const [a, b] = [await h.signIn(), await h.signIn()];
    expect((await join(a, twice.code)).status).toBe(200);
    expect((await list(admin)).find((i) => i.code === twice.code)?.uses).toBe(1);
    expect((await join(b, twice.code)).status).toBe(200);
    expect((await join(await h.signIn(), single.code)).status).toBe(200);
    expect((await join(await h.signIn(), unlimited.code)).status).toBe(200);
    const id = (await list(admin)).find((i) => i.code === unlimited.code)!.id;
    expect((await admin.call("DELETE", `/organizations/invites/${id}`)).status).toBe(200);
    expect((await list(admin)).map((i) => i.code)).toEqual([soon.code]);
    clock += DAY;
    expect(await list(admin)).toEqual([]);
  });

  it("pages the codes newest first: older ones before an id, newer ones after it, none lost past the first page", async () => {
    const admin = await h.admin("Acme");
    const codes: string[] = [];
    for (let i = 0; i < 7; i++) codes.push((await create(admin, { status: "single-use" })).code);
    const newestFirst = [...codes].reverse();
    const page = async (query: string) => {
      const response = await admin.call("GET", `/organizations/invites?${query}`);
      expect(response.status).toBe(200);
      return ((await response.json()) as { id: number; code: string }[]).map((i) => i.code);
    };
    const ids = (await list(admin)).map((i) => i.id);
    expect(await page("limit=3")).toEqual(newestFirst.slice(0, 3));
    expect(await page(`before=${ids[2]}&limit=3`)).toEqual(newestFirst.slice(3, 6));
    expect(await page(`before=${ids[5]}&limit=3`)).toEqual(newestFirst.slice(6));
    expect(await page(`after=${ids[6]}&limit=3`)).toEqual(newestFirst.slice(3, 6));
    expect(await page(`after=${ids[3]}&limit=3`)).toEqual(newestFirst.slice(0, 3));
    expect((await admin.call("GET", "/organizations/invites?limit=201")).status).toBe(400);
  });

  it("is for admins only: a member and an outsider are refused with 403, a signed-out caller with 401", async () => {
    const { member, outsider } = await h.team();
    expect((await member.call("GET", "/organizations/invites")).status).toBe(403);
    expect((await member.call("DELETE", "/organizations/invites/1")).status).toBe(403);
    const nobody = await h.signIn();
    expect((await nobody.call("GET", "/organizations/invites")).status).toBe(403);
    expect((await h.fetch("/organizations/invites")).status).toBe(401);
    expect((await h.fetch("/organizations/invites/1", { method: "DELETE" })).status).toBe(401);
    expect((await outsider.call("GET", "/organizations/invites")).status).toBe(200);
  });

  it("keeps organizations apart: an admin sees only their own codes and can't revoke another organization's (404)", async () => {
    const { admin, outsider } = await h.team();
    const theirs = await create(outsider, { status: "multi-use" });
    expect((await list(admin)).map((i) => i.code)).not.toContain(theirs.code);
    const theirId = (await list(outsider))[0]!.id;
    const refused = await admin.call("DELETE", `/organizations/invites/${theirId}`);
    expect(refused.status).toBe(404);
    expect((await refused.json()).error).toBe("Invite not found");
    for (const bad of ["999999", "abc", "-1"]) expect((await admin.call("DELETE", `/organizations/invites/${bad}`)).status).toBe(404);
    expect((await join(await h.signIn(), theirs.code)).status).toBe(200);
  });
});

describe("POST /organizations/invites with an expiry and a maximum number of uses", () => {
  it("refuses a maximum outside 1 to 1,000, a past or far expiry, and a single-use code with more than one use (400, by field)", async () => {
    const admin = await h.admin();
    for (const [body, field] of [
      [{ status: "multi-use", maxUses: 0 }, "maxUses"],
      [{ status: "multi-use", maxUses: 1001 }, "maxUses"],
      [{ status: "multi-use", maxUses: 2.5 }, "maxUses"],
      [{ status: "multi-use", maxUses: "5" }, "maxUses"],
      [{ status: "single-use", maxUses: 5 }, "maxUses"],
      [{ status: "multi-use", expiresAt: clock - 1 }, "expiresAt"],
      [{ status: "multi-use", expiresAt: clock + 400 * DAY }, "expiresAt"],
    ] as const) {
      const response = await admin.call("POST", "/organizations/invites", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys((await response.json()).fields ?? {}), JSON.stringify(body)).toEqual([field]);
    }
    expect(await list(admin)).toEqual([]);
  });
});

describe("POST /auth/join/{code}: codes that can't be used any more", () => {
  it("refuses a revoked code with 404 and says so", async () => {
    const admin = await h.admin();
    const { code } = await create(admin, { status: "multi-use" });
    const id = (await list(admin))[0]!.id;
    expect((await admin.call("DELETE", `/organizations/invites/${id}`)).status).toBe(200);
    expect((await admin.call("DELETE", `/organizations/invites/${id}`)).status).toBe(200); // already revoked: nothing to do
    const refused = await join(await h.signIn(), code);
    expect(refused.status).toBe(404);
    expect((await refused.json()).error).toBe("This invite code has been revoked");
  });

  it("refuses an expired code with 404 and says so", async () => {
    const admin = await h.admin();
    const { code } = await create(admin, { status: "single-use", expiresAt: clock + DAY });
    clock += DAY;
    const refused = await join(await h.signIn(), code);
    expect(refused.status).toBe(404);
    expect((await refused.json()).error).toBe("This invite code has expired");
  });

  it("refuses a code whose maximum number of uses is reached, and counts each use once", async () => {
    const admin = await h.admin();
    const { code } = await create(admin, { status: "multi-use", maxUses: 2 });
    const [a, b, c] = [await h.signIn(), await h.signIn(), await h.signIn()];
    expect((await join(a, code)).status).toBe(200);
    expect((await join(a, code)).status).toBe(200); // already a member: not a second use
    expect((await join(b, code)).status).toBe(200);
    const refused = await join(c, code);
    expect(refused.status).toBe(404);
    expect((await refused.json()).error).toBe("This invite code is invalid or has already been used");
    const members = await (await admin.call("GET", "/organizations/members")).json();
    expect(members).toHaveLength(3);
  });

  it("lets only as many racing joins in as the code has uses left", async () => {
    const admin = await h.admin();
    const { code } = await create(admin, { status: "multi-use", maxUses: 2 });
    const users = [await h.signIn(), await h.signIn(), await h.signIn(), await h.signIn()];
    const statuses = (await Promise.all(users.map((u) => join(u, code)))).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 404, 404]);
  });

  it("refuses a code revoked by its organization's other admin after the first join", async () => {
    const { admin, member } = await h.team();
    await admin.call("PUT", `/organizations/members/${member.userId}`, { role: "admin" });
    const { code } = await create(admin, { status: "multi-use" });
    expect((await join(await h.signIn(), code)).status).toBe(200);
    const id = (await list(member))[0]!.id;
    expect((await member.call("DELETE", `/organizations/invites/${id}`)).status).toBe(200);
    expect((await join(await h.signIn(), code)).status).toBe(404);
  });
});
