import { describe, expect, it } from "vitest";
import { staticPage } from "~/lib/static-page.testing";
import type { Member } from "~/platform/team";
import type { KeysetPage } from "~/lib/keyset-page";
import { MemberTable } from "./MemberTable";

const HEBREW = "שירה כהן";
const members = [
  { id: 1, name: "Ada", email: "ada@example.test", role: "admin" as const },
  { id: 2, name: HEBREW, email: "shira@example.test", role: "member" as const },
];
const onePage = { rows: members, next: null, previous: null };
const table = async (viewer: { userId: number; role: "admin" | "member" }, page: KeysetPage<Member> = onePage, q = "") =>
  (await staticPage("/team", <MemberTable page={page} query={{ q }} viewer={viewer} />, { path: "team" }))();

describe("the members table", () => {
  it('isolates each name from the badge after it, so a right-to-left name leaves "you" on its right', async () => {
    const html = await table({ userId: 2, role: "member" });
    expect(html).toMatch(new RegExp(`<td class="font-medium"><bdi>${HEBREW}</bdi><span class="badge[^"]*">you</span></td>`));
    expect(html).toContain("<bdi>Ada</bdi>");
  });

  it("asks to remove a member with the name isolated in the question's text, which is a plain string", async () => {
    const html = await table({ userId: 1, role: "admin" });
    expect(html).toContain(`Remove \u2068${HEBREW}\u2069 from the organization? They lose access to the console at once.`);
  });

  it("asks, in the removal's own form (so without JavaScript too), whether to revoke what they made: checked unless unchecked", async () => {
    const html = await table({ userId: 1, role: "admin" });
    const form = [...html.matchAll(/<form method="post"[^>]*>(?:(?!<\/form>).)*<\/form>/g)].map((m) => m[0]).find((f) => f.includes('value="remove"')) ?? "";
    const box = form.match(/<input type="checkbox" name="revokeMade"[^>]*>/)?.[0] ?? "";
    expect(box).toContain('value="true"');
    expect(box).toContain('checked=""');
    expect(form).toContain("Also revoke the API tokens and invite codes they made");
    expect(form).toContain('name="memberId" value="2"');
  });

  it("counts the members and offers no search or pages when they fit on one page", async () => {
    const html = await table({ userId: 1, role: "admin" });
    expect(html).toMatch(/Members <span class="badge[^"]*">2<\/span>/);
    expect(html).not.toContain('role="search"');
    expect(html).not.toContain("Member pages");
  });

  it("offers a search and Previous and Next links that keep it on a page between others, without a count", async () => {
    const html = await table({ userId: 1, role: "admin" }, { rows: members, next: 2, previous: 1 }, "a&b");
    expect(html).toContain('role="search"');
    expect(html).toMatch(/<input[^>]*name="q"[^>]*value="a&amp;b"/);
    expect(html).toContain('href="/team?q=a%26b&amp;before=1"');
    expect(html).toContain('href="/team?q=a%26b&amp;after=2"');
    expect(html).not.toMatch(/Members <span class="badge/);
  });

  it("marks an email the sign-in provider never verified, and no other: true and absent (an earlier platform) show none", async () => {
    const rows: Member[] = [
      { id: 1, name: "Ada", email: "ada@example.test", emailVerified: true, role: "admin" },
      { id: 2, name: "Impostor", email: "ops@corp.test", emailVerified: false, role: "member" },
      { id: 3, name: "Older", email: "older@example.test", role: "member" },
    ];
    const html = await table({ userId: 1, role: "admin" }, { rows, next: null, previous: null });
    const emailCell = (email: string) =>
      html.match(new RegExp(`<td class="text-base-content/70 \\[overflow-wrap:anywhere\\]"><bdi>${email}</bdi>(?:(?!</td>).)*</td>`))?.[0] ?? "";
    expect(emailCell("ops@corp.test")).toMatch(/<span class="badge[^"]*"[^>]*>unverified<\/span><\/td>$/);
    expect(emailCell("ada@example.test")).toBe('<td class="text-base-content/70 [overflow-wrap:anywhere]"><bdi>ada@example.test</bdi></td>');
    expect(emailCell("older@example.test")).toBe('<td class="text-base-content/70 [overflow-wrap:anywhere]"><bdi>older@example.test</bdi></td>');
    expect(html.match(/unverified</g)).toHaveLength(1);
  });

  it("says when a search found no one, with a way back to everyone", async () => {
    const html = await table({ userId: 1, role: "admin" }, { rows: [], next: null, previous: null }, "zed");
    expect(html).toContain("No members match “<bdi>zed</bdi>”.");
    expect(html).toMatch(/<a[^>]*href="\/team"[^>]*>Clear search<\/a>/);
    expect(html).not.toContain("Members table");
  });
});
