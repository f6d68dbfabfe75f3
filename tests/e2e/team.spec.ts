import type { Page } from "@playwright/test";
import { isolate } from "~/lib/bidi";
import { newPerson, signInWithOrganization } from "./support/auth";
import { organizationWithMember, signedInPage } from "./support/team";
import { expect, test } from "./support/test";

test("an admin invites, a second user joins with the code, the admin promotes then removes them", async ({ page, browser, baseURL, context }) => {
  test.slow(); // two people, two browser contexts and a dozen page loads on a shared machine
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const { person: adminPerson } = await signInWithOrganization(page);
  await page.goto("/team");
  await expect(page.getByRole("row", { name: new RegExp(adminPerson.email) })).toContainText("Admin");

  await page.getByRole("button", { name: "Single-use invite" }).click();
  const invite = page.getByRole("status", { name: "Invite code" });
  await expect(invite).toContainText("single-use");
  const code = (await invite.locator("code").textContent())!.trim();
  expect(code).toMatch(/^[A-Z2-9]{12}$/);
  await invite.getByRole("button", { name: "Copy code" }).click();
  await expect(invite.getByRole("button", { name: "Copied!" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);

  const joiner = newPerson("Joiner");
  const joinerPage = await signedInPage(browser, baseURL!, joiner);
  await joinerPage.goto("/welcome");
  await joinerPage.getByPlaceholder("Enter invite code").fill(code);
  await joinerPage.getByRole("button", { name: "Join Organization" }).click();
  await expect(joinerPage).toHaveURL(/\/team$/);
  await expect(joinerPage.getByRole("row", { name: new RegExp(adminPerson.email) })).toBeVisible();

  await page.reload();
  const row = page.getByRole("row", { name: new RegExp(joiner.email) });
  await expect(row).toContainText(joiner.name);
  const role = row.getByLabel(`Role of ${joiner.name}`);
  await expect(role).toHaveValue("member");
  await role.selectOption("admin");
  await expect(page.getByRole("status").filter({ hasText: `${isolate(joiner.name)} is now an Admin.` })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("row", { name: new RegExp(joiner.email) }).getByLabel(`Role of ${joiner.name}`)).toHaveValue("admin");

  // The promoted member now sees the admin controls.
  await joinerPage.reload();
  await expect(joinerPage.getByRole("button", { name: "Multi-use invite" })).toBeVisible();
  // As an admin they make an API token: removed with the question's box left checked, it stops working.
  const made = await joinerPage.request.post("/api/v1/tokens", { data: { scopes: ["models:read"], expiresAt: null } });
  expect(made.status()).toBe(201);
  const { token } = (await made.json()) as { token: string };
  const models = async () => (await page.request.get("/openai/v1/models", { headers: { authorization: `Bearer ${token}` } })).status();
  expect(await models()).toBe(200);

  const promotedRow = page.getByRole("row", { name: new RegExp(joiner.email) });
  // The toasts' live region is on the page before its message is written into it, so it is announced.
  const toasts = page.locator('.toast-box [role="status"]');
  await expect(toasts).toBeEmpty();
  await promotedRow.getByRole("button", { name: "Remove" }).click();
  const confirm = page.getByRole("alertdialog", { name: new RegExp(`Remove ${isolate(joiner.name)}`) });
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText("They lose access to the console at once.");
  await expect(confirm.getByRole("checkbox", { name: "Also revoke the API tokens and invite codes they made" })).toBeChecked();
  await confirm.getByRole("button", { name: "Remove member" }).click();
  await expect(toasts).toHaveText("Member removed. Revoked 1 API token they made.✕");
  expect(await models()).toBe(401);
  await expect(page.getByRole("row", { name: new RegExp(joiner.email) })).toHaveCount(0);
  // Focus does not fall to the page's body with the row: the table's heading takes it.
  await expect(page.getByRole("heading", { name: /^Members/ })).toBeFocused();

  // Removed, they have no organization any more.
  await joinerPage.goto("/team");
  await expect(joinerPage).toHaveURL(/\/welcome$/);
  await joinerPage.context().close();
});

test("a member sees the members and roles read-only, with no admin controls", async ({ page, browser, baseURL }) => {
  const { admin, member } = await organizationWithMember(page, browser, baseURL!);
  const memberPage = member.page;
  await memberPage.goto("/team");
  const adminRow = memberPage.getByRole("row", { name: new RegExp(admin.person.email) });
  await expect(adminRow).toContainText(admin.person.name);
  await expect(adminRow).toContainText("Admin");
  await expect(memberPage.getByRole("row", { name: new RegExp(member.person.email) })).toContainText("Member");
  await expect(memberPage.getByRole("button", { name: "Single-use invite" })).toHaveCount(0);
  await expect(memberPage.getByRole("button", { name: "Multi-use invite" })).toHaveCount(0);
  await expect(memberPage.getByRole("combobox")).toHaveCount(0);
  await expect(memberPage.getByRole("button", { name: "Remove" })).toHaveCount(0);

  // The admin sees no controls on their own row.
  await page.goto("/team");
  const ownRow = page.getByRole("row", { name: new RegExp(admin.person.email) });
  await expect(ownRow.getByRole("combobox")).toHaveCount(0);
  await expect(ownRow.getByRole("button", { name: "Remove" })).toHaveCount(0);
  await expect(page.getByRole("row", { name: new RegExp(member.person.email) }).getByRole("combobox")).toBeVisible();
  await memberPage.context().close();
});

test("a refused change shows the platform's error text in an alert", async ({ page, browser, baseURL }) => {
  const { admin, member } = await organizationWithMember(page, browser, baseURL!);
  // The member is promoted, and then (in another tab, say) demotes the admin who has the page open.
  await page.request.put(`/api/v1/organizations/members/${await memberId(page, member.person.email)}`, { data: { role: "admin" } });
  await page.goto("/team");
  const demoted = await member.page.request.put(`/api/v1/organizations/members/${await memberId(page, admin.person.email)}`, { data: { role: "member" } });
  expect(demoted.ok()).toBe(true);
  await page
    .getByRole("row", { name: new RegExp(member.person.email) })
    .getByLabel(`Role of ${member.person.name}`)
    .selectOption("member");
  await expect(page.getByRole("alert")).toHaveText("Only admins can do this");
  await member.page.context().close();
});

test("an admin demoted while the page was open is told why the invite was refused, not left with a vanished form", async ({ page, browser, baseURL }) => {
  const { admin, member } = await organizationWithMember(page, browser, baseURL!);
  await page.request.put(`/api/v1/organizations/members/${await memberId(page, member.person.email)}`, { data: { role: "admin" } });
  await page.goto("/team");
  expect((await member.page.request.put(`/api/v1/organizations/members/${await memberId(page, admin.person.email)}`, { data: { role: "member" } })).ok()).toBe(
    true,
  );
  await page.getByRole("button", { name: "Single-use invite" }).click();
  await expect(page.getByRole("alert")).toHaveText("Only admins can do this");
  await expect(page.getByRole("alert")).toBeFocused();
  await expect(page.getByRole("button", { name: "Single-use invite" })).toHaveCount(0);
  await member.page.context().close();
});

async function memberId(page: Page, email: string): Promise<number> {
  const members = (await (await page.request.get("/api/v1/organizations/members")).json()) as { id: number; email: string }[];
  return members.find((m) => m.email === email)!.id;
}

test.describe("with JavaScript disabled", () => {
  test.use({ javaScriptEnabled: false });

  test("an admin changes a role with the Save button and removes a member after confirming", async ({ page, browser, baseURL }) => {
    const { member } = await organizationWithMember(page, browser, baseURL!);
    await page.goto("/team");
    const row = page.getByRole("row", { name: new RegExp(member.person.email) });
    await row.getByLabel(`Role of ${member.person.name}`).selectOption("admin");
    await row.getByRole("button", { name: `Save role of ${member.person.name}`, exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: `${isolate(member.person.name)} is now an Admin.` })).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(member.person.email) }).getByLabel(`Role of ${member.person.name}`)).toHaveValue("admin");

    await page
      .getByRole("row", { name: new RegExp(member.person.email) })
      .getByRole("button", { name: "Remove" })
      .click();
    // The question's box, unchecked without JavaScript: the removal alone.
    await page.getByRole("alertdialog").getByRole("checkbox", { name: "Also revoke the API tokens and invite codes they made" }).uncheck();
    await page.getByRole("alertdialog").getByRole("button", { name: "Remove member" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Member removed." })).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(member.person.email) })).toHaveCount(0);
    await member.page.context().close();
  });

  test("an admin generates an invite code", async ({ page }) => {
    await signInWithOrganization(page);
    await page.goto("/team");
    await page.getByRole("button", { name: "Multi-use invite" }).click();
    await expect(page.getByRole("status", { name: "Invite code" })).toContainText("multi-use");
    await expect(page.getByRole("status", { name: "Invite code" }).locator("code")).toHaveText(/^[A-Z2-9]{12}$/);
  });
});
