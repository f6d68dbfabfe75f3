import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Member } from "@contract/team";
import { changeMemberRole } from "../../platform/orgs/service";
import type { Harness, Session } from "./harness";
import { createHarness } from "./harness";

let h: Harness;
let admin: Session & { orgId: number };
let member: Session;
let outsider: Session & { orgId: number };

beforeEach(async () => {
  h = await createHarness();
  ({ admin, member, outsider } = await h.team());
});
afterEach(() => h.close());

async function members(session: Session) {
  const response = await session.call("GET", "/organizations/members");
  expect(response.status).toBe(200);
  return (await response.json()) as Member[];
}

describe("GET /organizations/members", () => {
  it("lists the organization's members with name, email (verified: development sign-in vouches for it) and role, for admins and members alike", async () => {
    for (const who of [admin, member]) {
      const list = await members(who);
      expect(list).toEqual([
        { id: admin.userId, name: expect.any(String), email: admin.email, emailVerified: true, role: "admin" },
        { id: member.userId, name: "Mia Member", email: member.email, emailVerified: true, role: "member" },
      ]);
    }
  });

  it("shows a member of another organization only their own organization", async () => {
    const list = await members(outsider);
    expect(list.map((m) => m.id)).toEqual([outsider.userId]);
  });

  it("answers 401 signed out and 403 without an organization", async () => {
    expect((await h.fetch("/organizations/members")).status).toBe(401);
    const loner = await h.signIn();
    expect((await loner.call("GET", "/organizations/members")).status).toBe(403);
  });
});

describe("GET /organizations/members with a search and pages", () => {
  /** The admin, Mia Member, then `count` more who join Acme in turn. */
  async function joined(count: number, name = (i: number) => `Person ${i}`) {
    const people: Session[] = [];
    for (let i = 0; i < count; i++) {
      const person = await h.signIn(name(i), `person${i}@example.test`);
      await h.join(admin, person);
      people.push(person);
    }
    return people;
  }
  const ids = (list: Member[]) => list.map((m) => m.id);
  const page = async (query: string) => {
    const response = await member.call("GET", `/organizations/members?${query}`);
    expect(response.status).toBe(200);
    return ids((await response.json()) as Member[]);
  };

  it("pages in joined order, forwards after a member and backwards before one, the same as the whole list cut", async () => {
    const people = await joined(5);
    const all = [admin.userId, member.userId, ...people.map((p) => p.userId)];
    expect(ids(await members(member))).toEqual(all);
    expect(await page("limit=3")).toEqual(all.slice(0, 3));
    expect(await page(`after=${all[2]}&limit=3`)).toEqual(all.slice(3, 6));
    expect(await page(`after=${all[5]}&limit=3`)).toEqual(all.slice(6));
    expect(await page(`after=${all[6]}&limit=3`)).toEqual([]);
    // Backwards: the `limit` members just before, still in joined order.
    expect(await page(`before=${all[5]}&limit=3`)).toEqual(all.slice(2, 5));
    expect(await page(`before=${all[1]}&limit=3`)).toEqual(all.slice(0, 1));
  });

  it("keeps pages apart for members who joined in the same millisecond (ties go by id)", async () => {
    const people = await joined(4);
    await h.deps.db.updateTable("memberships").set({ created_at: 1 }).where("org_id", "=", admin.orgId).execute();
    const all = [admin.userId, member.userId, ...people.map((p) => p.userId)].sort((a, b) => a - b);
    expect(await page("limit=2")).toEqual(all.slice(0, 2));
    expect(await page(`after=${all[1]}&limit=2`)).toEqual(all.slice(2, 4));
    expect(await page(`before=${all[4]}&limit=2`)).toEqual(all.slice(2, 4));
  });

  it("finds members by any part of the name or email, in any case, with % and _ matched as typed", async () => {
    const people = await joined(6, (i) => ["Zoë Ångström", "Bob 100%", "Bob_Underscore", "Carol", "İlker Yılmaz", "ΚΩΝΣΤΑΝΤΙΝΟΣ Παππάς"][i]);
    // Turkish İ is an i, and a final sigma typed at the end of a search is a sigma.
    expect(await page("q=ilker")).toEqual([people[4].userId]);
    expect(await page(`q=${encodeURIComponent("ΚΩΝΣ")}`)).toEqual([people[5].userId]);
    expect(await page("q=%C3%85NGSTR")).toEqual([people[0].userId]);
    expect(await page("q=zo%C3%AB")).toEqual([people[0].userId]);
    expect(await page("q=100%25")).toEqual([people[1].userId]);
    expect(await page("q=b_u")).toEqual([people[2].userId]);
    expect(await page("q=bob")).toEqual([people[1].userId, people[2].userId]);
    expect(await page("q=PERSON3%40EXAMPLE")).toEqual([people[3].userId]);
    // Searching and paging together.
    expect(await page(`q=bob&after=${people[1].userId}&limit=1`)).toEqual([people[2].userId]);
    expect(await page("q=nobody")).toEqual([]);
  });

  it("finds a member by the name they sign in with next, not the one they had", async () => {
    const [person] = await joined(1, () => "Old Name");
    await h.signIn("New Name", "person0@example.test");
    expect(await page("q=new%20name")).toEqual([person.userId]);
    expect(await page("q=old%20name")).toEqual([]);
  });

  it("finds a member an older build signed in (no search text yet) by the name as the database folds it", async () => {
    const [person] = await joined(1, () => "Dana Older");
    await h.deps.db.updateTable("users").set({ search_text: "" }).where("id", "=", person.userId).execute();
    expect(await page("q=DANA%20old")).toEqual([person.userId]);
    expect(await page("q=person0%40example")).toEqual([person.userId]);
  });

  it("gives an empty page for a cursor that names no member of the organization, and refuses a bad limit", async () => {
    await joined(2);
    expect(await page(`after=${outsider.userId}`)).toEqual([]);
    expect(await page("before=2147483648")).toEqual([]);
    expect((await member.call("GET", "/organizations/members?limit=0")).status).toBe(400);
    expect((await member.call("GET", "/organizations/members?limit=201")).status).toBe(400);
    expect((await member.call("GET", `/organizations/members?q=${"x".repeat(101)}`)).status).toBe(400);
  });
});

describe("GET /organizations/members/{id}", () => {
  it("answers one member of the organization, to admins and members alike", async () => {
    for (const who of [admin, member]) {
      const response = await who.call("GET", `/organizations/members/${member.userId}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ id: member.userId, name: "Mia Member", email: member.email, emailVerified: true, role: "member" });
    }
  });

  it("answers 404 for a member of another organization or no one, and 401 signed out", async () => {
    for (const id of [outsider.userId, 999_999, "abc"]) {
      const response = await member.call("GET", `/organizations/members/${id}`);
      expect(response.status, String(id)).toBe(404);
      expect(await response.json()).toEqual({ error: "Member not found" });
    }
    expect((await h.fetch(`/organizations/members/${member.userId}`)).status).toBe(401);
  });
});

describe("PUT /organizations/members/{id}", () => {
  it("lets an admin promote and demote another member", async () => {
    const promoted = await admin.call("PUT", `/organizations/members/${member.userId}`, { role: "admin" });
    expect(promoted.status).toBe(200);
    expect(await promoted.json()).toMatchObject({ id: member.userId, role: "admin" });
    const session = await (await member.call("GET", "/auth/session")).json();
    expect(session.activeRole).toBe("admin");
    const demoted = await admin.call("PUT", `/organizations/members/${member.userId}`, { role: "member" });
    expect(await demoted.json()).toMatchObject({ role: "member" });
  });

  it("refuses a member (403), a member of another organization (404) and the signed-out (401)", async () => {
    const asMember = await member.call("PUT", `/organizations/members/${admin.userId}`, { role: "member" });
    expect(asMember.status).toBe(403);
    expect((await asMember.json()).error).toBe("Only admins can do this");
    const asOutsider = await outsider.call("PUT", `/organizations/members/${member.userId}`, { role: "admin" });
    expect(asOutsider.status).toBe(404);
    expect((await asOutsider.json()).error).toBe("Member not found");
    const signedOut = await h.fetch(`/organizations/members/${member.userId}`, { method: "PUT", json: { role: "admin" } });
    expect(signedOut.status).toBe(401);
    expect((await members(admin)).map((m) => m.role)).toEqual(["admin", "member"]);
  });

  it("refuses an admin changing their own role", async () => {
    const response = await admin.call("PUT", `/organizations/members/${admin.userId}`, { role: "member" });
    expect(response.status).toBe(403);
    expect((await response.json()).error).toBe("You can't change your own role");
  });

  it("refuses an unknown role or member id", async () => {
    expect((await admin.call("PUT", `/organizations/members/${member.userId}`, { role: "owner" })).status).toBe(400);
    expect((await admin.call("PUT", "/organizations/members/999999", { role: "admin" })).status).toBe(404);
    expect((await admin.call("PUT", "/organizations/members/abc", { role: "admin" })).status).toBe(404);
  });

  it("never demotes the last admin, even when two admins demote each other at once", async () => {
    await admin.call("PUT", `/organizations/members/${member.userId}`, { role: "admin" });
    const [a, b] = await Promise.all([
      admin.call("PUT", `/organizations/members/${member.userId}`, { role: "member" }),
      member.call("PUT", `/organizations/members/${admin.userId}`, { role: "member" }),
    ]);
    // Exactly one wins. The other is refused: 409 when both checks overlap, or 403 when the winner's
    // change landed first and the loser is no longer an admin (PostgreSQL's interleaving).
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const refused = a.status === 200 ? b : a;
    if (refused.status === 409) expect((await refused.json()).error).toBe("An organization must keep at least one admin");
    expect((await members(admin)).filter((m) => m.role === "admin")).toHaveLength(1);
  });

  it("checks in the service itself that the actor is still an admin (the only admin can't be demoted by a member)", async () => {
    await expect(changeMemberRole(h.deps, admin.orgId, member.userId, admin.userId, "member")).rejects.toMatchObject({
      status: 403,
      message: "Only admins can do this",
    });
    expect((await members(admin)).find((m) => m.id === admin.userId)?.role).toBe("admin");
  });
});

describe("DELETE /organizations/members/{id}", () => {
  it("lets an admin remove another member, who then has no access to the organization", async () => {
    const response = await admin.call("DELETE", `/organizations/members/${member.userId}`);
    expect(response.status).toBe(200);
    expect((await members(admin)).map((m) => m.id)).toEqual([admin.userId]);
    expect((await member.call("GET", "/organizations/members")).status).toBe(403);
    const session = await (await member.call("GET", "/auth/session")).json();
    expect(session.activeOrganization).toBeNull();
  });

  it("refuses a member (403), a member of another organization (404) and the signed-out (401)", async () => {
    expect((await member.call("DELETE", `/organizations/members/${admin.userId}`)).status).toBe(403);
    expect((await outsider.call("DELETE", `/organizations/members/${member.userId}`)).status).toBe(404);
    expect((await h.fetch(`/organizations/members/${member.userId}`, { method: "DELETE" })).status).toBe(401);
    expect(await members(admin)).toHaveLength(2);
  });

  it("refuses an admin removing themselves", async () => {
    const response = await admin.call("DELETE", `/organizations/members/${admin.userId}`);
    expect(response.status).toBe(403);
    expect((await response.json()).error).toBe("You can't remove yourself");
  });

  it("never removes the last admin when two admins remove each other at once", async () => {
    await admin.call("PUT", `/organizations/members/${member.userId}`, { role: "admin" });
    const results = await Promise.all([
      admin.call("DELETE", `/organizations/members/${member.userId}`),
      member.call("DELETE", `/organizations/members/${admin.userId}`),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const remaining = await (results[0].status === 200 ? admin : member).call("GET", "/organizations/members");
    expect(((await remaining.json()) as Member[]).filter((m) => m.role === "admin")).toHaveLength(1);
  });
});

describe("two admins acting on one member at once", () => {
  async function secondAdmin() {
    const second = await h.signIn("Second");
    await h.join(admin, second);
    expect((await admin.call("PUT", `/organizations/members/${second.userId}`, { role: "admin" })).status).toBe(200);
    return second;
  }

  it("answers the removal that lost the race 'Member not found', not 'keep at least one admin'", async () => {
    const second = await secondAdmin();
    const results = await Promise.all([
      admin.call("DELETE", `/organizations/members/${member.userId}`),
      second.call("DELETE", `/organizations/members/${member.userId}`),
    ]);
    const answers = await Promise.all(results.map(async (r) => ({ status: r.status, body: await r.json() })));
    answers.sort((a, b) => a.status - b.status);
    expect(answers[0].status).toBe(200);
    expect(answers[1]).toEqual({ status: 404, body: { error: "Member not found" } });
  });

  it("answers a promotion of a member removed meanwhile 'Member not found'", async () => {
    const second = await secondAdmin();
    const [promoted, removed] = await Promise.all([
      admin.call("PUT", `/organizations/members/${member.userId}`, { role: "admin" }),
      second.call("DELETE", `/organizations/members/${member.userId}`),
    ]);
    expect(removed.status).toBe(200);
    // Either the promotion ran first (and the removal of the new admin went through), or it finds nobody.
    if (promoted.status !== 200) expect({ status: promoted.status, body: await promoted.json() }).toEqual({ status: 404, body: { error: "Member not found" } });
    expect((await members(admin)).map((m) => m.id)).not.toContain(member.userId);
  });
});

describe("POST /organizations/invites", () => {
  it("is for admins only", async () => {
    expect((await admin.call("POST", "/organizations/invites", { status: "single-use" })).status).toBe(201);
    expect((await member.call("POST", "/organizations/invites", { status: "single-use" })).status).toBe(403);
    expect((await h.fetch("/organizations/invites", { method: "POST", json: { status: "single-use" } })).status).toBe(401);
  });
});
