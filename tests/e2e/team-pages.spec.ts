import type { Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { signInWithOrganization } from "./support/auth";
import { writeDatabase } from "./support/billing";
import { seedMembers } from "./support/team";
import { expect, test } from "./support/test";

const memberRows = (page: Page) => page.getByRole("region", { name: "Members table" }).locator("tbody tr");

test("a team of 61 is shown 50 at a time, with Next and Previous, a search, and each answer back on the page it came from", async ({ page }) => {
  const { orgId } = await signInWithOrganization(page);
  const people = await seedMembers(orgId, 60);
  await page.goto("/team");
  await expect(memberRows(page)).toHaveCount(50);
  await expect(page.getByRole("heading", { name: "Members", exact: true })).toBeVisible();
  const pages = page.getByRole("navigation", { name: "Member pages" });
  await expect(pages.getByRole("button", { name: "Previous" })).toBeDisabled();

  // From the keyboard: Next to the last page leaves focus on the pager's remaining link, not the page's start.
  await pages.getByRole("link", { name: "Next" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/team\?after=\d+$/);
  await expect(memberRows(page)).toHaveCount(11);
  await expect(pages.getByRole("link", { name: "Previous" })).toBeFocused();
  // The rows changed while focus stayed on the pager: a screen reader is told what the page now holds.
  await expect(pages.getByRole("status")).toHaveText(`11 members, from ${people[49].name}`);
  await expect(memberRows(page).first()).toContainText(people[49].name);
  await expect(memberRows(page).last()).toContainText(people[59].name);
  await expect(pages.getByRole("button", { name: "Next" })).toBeDisabled();

  // A change on the second page comes back to the second page.
  const row = page.getByRole("row", { name: new RegExp(people[55].email) });
  await row.getByRole("button", { name: "Remove" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Remove member" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Member removed." })).toBeVisible();
  await expect(page).toHaveURL(/\/team\?after=\d+$/);
  await expect(memberRows(page)).toHaveCount(10);

  await pages.getByRole("link", { name: "Previous" }).click();
  await expect(memberRows(page)).toHaveCount(50);
  await expect(memberRows(page).last()).toContainText(people[48].name);

  const search = page.getByRole("search");
  await search.getByLabel("Search members").fill(`SEEDED 07`);
  await search.getByLabel("Search members").press("Enter");
  await expect(page).toHaveURL(/\/team\?q=SEEDED\+07$/);
  await expect(memberRows(page)).toHaveCount(1);
  // The box keeps focus and what was typed, and a screen reader hears what the search found.
  await expect(search.getByLabel("Search members")).toBeFocused();
  await expect(search.getByLabel("Search members")).toHaveValue("SEEDED 07");
  await expect(page.getByRole("status").filter({ hasText: "1 member matches." })).toHaveCount(1);
  await expect(memberRows(page)).toContainText(people[6].email);
  await expect(page.getByRole("heading", { name: "Members 1" })).toBeVisible();

  await search.getByLabel("Search members").fill("nobody-by-this-name");
  await search.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("status").filter({ hasText: "No members match “nobody-by-this-name”." })).toBeVisible();
  await page.getByRole("link", { name: "Clear search" }).click();
  await expect(page).toHaveURL(/\/team$/);
  await expect(memberRows(page)).toHaveCount(50);
});

test("55 invite codes are shown 50 at a time, newest first, and the member pages keep the invite page", async ({ page }) => {
  const { orgId } = await signInWithOrganization(page);
  await seedMembers(orgId, 55);
  const tag = randomUUID().replace(/-/g, "").slice(0, 8).toUpperCase();
  const codes = Array.from({ length: 55 }, (_, i) => `S${tag}${String(i).padStart(3, "0")}`);
  await writeDatabase(
    codes.map((code, i) => ({
      sql: "insert into invites (code, org_id, kind, created_by, created_at, use_count, max_uses) values (?, ?, 'multi-use', (select user_id from memberships where org_id = ? and role = 'admin'), ?, 0, null)",
      params: [code, orgId, orgId, Date.now() + i],
    })),
  );
  await page.goto("/team");
  const invites = page.getByRole("region", { name: "Invite codes table" }).locator("tbody tr");
  await expect(invites).toHaveCount(50);
  await expect(invites.first()).toContainText(codes[54]);
  await expect(page.getByRole("heading", { name: "Active invite codes", exact: true })).toBeVisible();
  await page.getByRole("navigation", { name: "Invite code pages" }).getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/\/team\?invitesBefore=\d+$/);
  await expect(invites).toHaveCount(5);
  await expect(invites.last()).toContainText(codes[0]);

  // The members' Next keeps the invite codes' page.
  await page.getByRole("navigation", { name: "Member pages" }).getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/\/team\?after=\d+&invitesBefore=\d+$/);
  await expect(invites).toHaveCount(5);
  await expect(memberRows(page)).toHaveCount(6);

  // The last code of the older page revoked (the others meanwhile elsewhere): that page is no more, and
  // the newest codes show again rather than "No active invite codes"; the member page stays.
  await writeDatabase([{ sql: "update invites set revoked_at = ? where code in (?, ?, ?, ?)", params: [Date.now(), ...codes.slice(1, 5)] }]);
  await page
    .getByRole("row", { name: new RegExp(codes[0]) })
    .getByRole("button", { name: "Revoke" })
    .click();
  await page
    .getByRole("alertdialog", { name: new RegExp(`Revoke invite code ${codes[0]}`) })
    .getByRole("button", { name: "Revoke invite" })
    .click();
  await expect(page).toHaveURL(/\/team\?after=\d+$/);
  await expect(invites).toHaveCount(50);
  await expect(invites.first()).toContainText(codes[54]);
  await expect(page.getByText("No active invite codes.")).toHaveCount(0);
  await expect(memberRows(page)).toHaveCount(6);
});

test.describe("with JavaScript disabled", () => {
  test.use({ javaScriptEnabled: false });

  test("the search and the pages work, and a role changed on a found member comes back to the search", async ({ page }) => {
    const { orgId } = await signInWithOrganization(page);
    const people = await seedMembers(orgId, 55);
    await page.goto("/team");
    await expect(memberRows(page)).toHaveCount(50);
    await page.getByRole("navigation", { name: "Member pages" }).getByRole("link", { name: "Next" }).click();
    await expect(memberRows(page)).toHaveCount(6);

    await page.getByRole("search").getByLabel("Search members").fill(people[3].email);
    await page.getByRole("search").getByRole("button", { name: "Search" }).click();
    await expect(memberRows(page)).toHaveCount(1);
    const row = page.getByRole("row", { name: new RegExp(people[3].email) });
    await row.getByLabel(`Role of ${people[3].name}`).selectOption("admin");
    await row.getByRole("button", { name: `Save role of ${people[3].name}`, exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: "is now an Admin." })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/team\\?q=${encodeURIComponent(people[3].email).replace(/\./g, "\\.")}$`));
    await expect(memberRows(page)).toHaveCount(1);
    await expect(page.getByRole("row", { name: new RegExp(people[3].email) }).getByLabel(`Role of ${people[3].name}`)).toHaveValue("admin");
  });
});
