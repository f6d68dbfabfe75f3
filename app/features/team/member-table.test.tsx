import { describe, expect, it } from "vitest";
import { staticPage } from "~/lib/static-page.testing";
import { MemberTable } from "./MemberTable";

const HEBREW = "שירה כהן";
const members = [
  { id: 1, name: "Ada", email: "ada@example.test", role: "admin" as const },
  { id: 2, name: HEBREW, email: "shira@example.test", role: "member" as const },
];
const table = async (viewer: { userId: number; role: "admin" | "member" }) =>
  (await staticPage("/team", <MemberTable members={members} viewer={viewer} />, { path: "team" }))();

describe("the members table", () => {
  it('isolates each name from the badge after it, so a right-to-left name leaves "you" on its right', async () => {
    const html = await table({ userId: 2, role: "member" });
    expect(html).toMatch(new RegExp(`<td class="font-medium"><bdi>${HEBREW}</bdi><span class="badge[^"]*">you</span></td>`));
    expect(html).toContain("<bdi>Ada</bdi>");
  });

  it("asks to remove a member with the name isolated in the question's text, which is a plain string", async () => {
    const html = await table({ userId: 1, role: "admin" });
    expect(html).toContain(`Remove \u2068${HEBREW}\u2069 from the organization? They lose access at once.`);
  });
});
