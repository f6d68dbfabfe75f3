import type { Page } from "@playwright/test";
import { createOrganizationWithRequests, newPerson, OPERATOR, signInWithOrganization } from "./support/auth";
import { inviteWithRequests, joinWithRequests, signedInPage, switchOrganization } from "./support/team";
import { expect, hydrated, test } from "./support/test";
import { isolate } from "~/lib/bidi";

/** Issue 14: a user who has organizations creates or joins another from inside the console, and switching keeps the page. */

const switcher = (page: Page) => page.getByLabel("Active organization");

async function openOrganizationsFromTheAvatarMenu(page: Page) {
  await page.goto("/team");
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("link", { name: "Organizations" }).click();
  await expect(page).toHaveURL(/\/organizations$/);
  await expect(page.getByRole("heading", { name: "Organizations", level: 1 })).toBeVisible();
}

test("a user with an organization creates a second one from the Organizations page, which becomes active", async ({ page }) => {
  const { orgName } = await signInWithOrganization(page, "Founder");
  await openOrganizationsFromTheAvatarMenu(page);
  const yours = page.getByRole("region", { name: "Your organizations" });
  await expect(yours.getByText(orgName)).toBeVisible();
  await expect(yours.getByText("Active")).toBeVisible();

  // The same form, texts and rules as /welcome.
  await expect(page.getByText("Choose a name for your organization")).toBeVisible();
  await expect(page.getByText("Enter the invite code provided by your organization")).toBeVisible();
  const create = page.getByRole("button", { name: "Create Organization" });
  await expect(create).toBeDisabled();
  await page.getByPlaceholder("My Organization").fill("   ");
  await expect(create).toBeDisabled();
  const second = `Second ${orgName}`;
  await page.getByPlaceholder("My Organization").fill(second);
  await create.click();

  await expect(page).toHaveURL(/\/team$/);
  await expect(page.getByRole("status").filter({ hasText: `You are now working in ${isolate(second)}.` })).toBeVisible();
  await expect(switcher(page).locator("option:checked")).toHaveText(second);
  const session = await (await page.request.get("/api/v1/auth/session")).json();
  expect(session.activeOrganization.name).toBe(second);
  expect(session.activeRole).toBe("admin");
  expect(session.organizations.map((o: { name: string }) => o.name).sort()).toEqual([orgName, second].sort());
});

test("a user with an organization joins another one with a code; a wrong code shows the platform's text", async ({ page, browser, baseURL }) => {
  const { orgName } = await signInWithOrganization(page, "Host");
  const code = await inviteWithRequests(page.request, "single-use");
  const joiner = await signedInPage(browser, baseURL!, newPerson("Joiner"));
  await createOrganizationWithRequests(joiner.request, `Own org ${Date.now()}`);
  await openOrganizationsFromTheAvatarMenu(joiner);

  await joiner.getByPlaceholder("Enter invite code").fill("WRONGCODE234");
  await joiner.getByRole("button", { name: "Join Organization" }).click();
  await expect(joiner.getByRole("alert")).toHaveText("This invite code is invalid or has already been used");
  await expect(joiner.getByPlaceholder("Enter invite code")).toHaveValue("WRONGCODE234");

  await joiner.getByPlaceholder("Enter invite code").fill(code);
  await joiner.getByRole("button", { name: "Join Organization" }).click();
  await expect(joiner).toHaveURL(/\/team$/);
  await expect(switcher(joiner).locator("option:checked")).toHaveText(orgName);
  const session = await (await joiner.request.get("/api/v1/auth/session")).json();
  expect(session.activeOrganization.name).toBe(orgName);
  expect(session.activeRole).toBe("member");
  await joiner.context().close();
});

test("switching organization keeps the page, with its view settings, when the new organization has it", async ({ page }) => {
  const { orgName } = await signInWithOrganization(page, "Keeper");
  const other = `Other ${orgName}`;
  await createOrganizationWithRequests(page.request, other);
  await page.goto("/billing");
  await expect(switcher(page).locator("option:checked")).toHaveText(other);
  await switchOrganization(page, orgName);
  await expect(switcher(page).locator("option:checked")).toHaveText(orgName);
  await expect(page).toHaveURL(/\/billing$/);
  await expect(page.getByRole("heading", { name: "Billing", level: 1 })).toBeVisible();

  await page.goto("/usage?days=7");
  await switchOrganization(page, other);
  await expect(switcher(page).locator("option:checked")).toHaveText(other);
  await expect(page).toHaveURL(/\/usage\?days=7$/);
});

test("the Organizations page switches to another of the user's organizations and stays there, and says so", async ({ page }) => {
  const { orgName } = await signInWithOrganization(page, "Lister");
  await createOrganizationWithRequests(page.request, `Other ${orgName}`);
  await page.goto("/organizations");
  await hydrated(page);
  // From the keyboard: the button gives way to the "Active" badge, and focus must not fall to the body.
  await page.getByRole("button", { name: `Switch to ${orgName}` }).press("Enter");
  await expect(switcher(page).locator("option:checked")).toHaveText(orgName);
  await expect(page).toHaveURL(/\/organizations$/);
  await expect(page.getByRole("status").filter({ hasText: `You are now working in ${isolate(orgName)}.` })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Your organizations" })).toBeFocused();
  await expect(
    page
      .getByRole("region", { name: "Your organizations" })
      .getByRole("listitem")
      .filter({ has: page.getByText(orgName, { exact: true }) }),
  ).toContainText("Active");
});

test("a token being edited belongs to the organization left behind: the switch opens the token list", async ({ page }) => {
  const { orgName } = await signInWithOrganization(page, "Editor");
  await createOrganizationWithRequests(page.request, `Other ${orgName}`);
  const tokens = (await (await page.request.get("/api/v1/tokens")).json()) as { publicId: string }[];
  await page.goto(`/tokens?edit=${tokens[0]!.publicId}`);
  await switchOrganization(page, orgName);
  await expect(switcher(page).locator("option:checked")).toHaveText(orgName);
  await expect(page).toHaveURL(/\/tokens$/);
});

test("switching from a system page to an ordinary organization lands on /team", async ({ page, browser, baseURL }) => {
  const { orgName } = await signInWithOrganization(page, "Ordinary");
  const operator = await signedInPage(browser, baseURL!, OPERATOR);
  await joinWithRequests(operator.request, await inviteWithRequests(page.request, "single-use"));
  try {
    await operator.request.post("/api/v1/auth/switch", { data: { organizationId: 1 } });
    await operator.goto("/system/orgs");
    await expect(operator).toHaveURL(/\/system\/orgs$/);
    await switchOrganization(operator, orgName);
    await expect(operator).toHaveURL(/\/team$/);
    await expect(switcher(operator).locator("option:checked")).toHaveText(orgName);
  } finally {
    // The operator is shared by the whole run: leave them with the system organization only.
    const members = (await (await page.request.get("/api/v1/organizations/members")).json()) as { id: number; email: string }[];
    const id = members.find((m) => m.email === OPERATOR.email)?.id;
    if (id) await page.request.delete(`/api/v1/organizations/members/${id}`);
    await operator.context().close();
  }
});

test("the switcher's arrow keys browse its list without switching; Enter on an organization switches to it", async ({ page }) => {
  const { orgName } = await signInWithOrganization(page, "Arrows");
  const second = `Second ${orgName}`;
  await createOrganizationWithRequests(page.request, second);
  await page.goto("/team");
  await hydrated(page);
  await expect(page.getByRole("complementary", { name: "Sidebar" }).getByRole("button", { name: "Switch" })).toHaveCount(0);
  const active = async () =>
    ((await (await page.request.get("/api/v1/auth/session")).json()) as { activeOrganization: { name: string } }).activeOrganization.name;
  expect(await active()).toBe(second);
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().includes("/switch-organization")) posts.push(r.url());
  });

  await switcher(page).focus();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowUp");
  await page.waitForTimeout(1000);
  expect(posts).toEqual([]);
  expect(await active()).toBe(second);
  await expect(switcher(page).locator("option:checked")).toHaveText(second);

  // The list is open: the highlighted organization is chosen with Enter, and only then it switches.
  await page.getByRole("option", { name: orgName, exact: true }).focus();
  const answered = page.waitForResponse((r) => r.url().includes("/switch-organization") && r.request().method() === "POST");
  await page.keyboard.press("Enter");
  await answered;
  await expect(switcher(page).locator("option:checked")).toHaveText(orgName);
  expect(await active()).toBe(orgName);
});

test.describe("with JavaScript disabled", () => {
  test.use({ javaScriptEnabled: false });

  test("the Organizations page creates and joins organizations, and the Switch button keeps the page", async ({ page, browser, baseURL }) => {
    const { orgName } = await signInWithOrganization(page, "NoScript Founder");
    await page.goto("/team");
    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("link", { name: "Organizations" }).click();
    await expect(page).toHaveURL(/\/organizations$/);

    // Blank after trimming: the server refuses it with the form's message.
    await page.getByPlaceholder("My Organization").fill("   ");
    await page.getByRole("button", { name: "Create Organization" }).click();
    await expect(page.getByText("Enter a name for your organization")).toBeVisible();
    const second = `Second ${orgName}`;
    await page.getByPlaceholder("My Organization").fill(second);
    await page.getByRole("button", { name: "Create Organization" }).click();
    await expect(page).toHaveURL(/\/team$/);
    await expect(switcher(page).locator("option:checked")).toHaveText(second);

    const host = await signedInPage(browser, baseURL!, newPerson("NoScript Host"));
    const hostOrg = `Host ${Date.now()}`;
    await createOrganizationWithRequests(host.request, hostOrg);
    const code = await inviteWithRequests(host.request, "multi-use");
    await page.goto("/organizations");
    await page.getByPlaceholder("Enter invite code").fill(code);
    await page.getByRole("button", { name: "Join Organization" }).click();
    await expect(page).toHaveURL(/\/team$/);
    await expect(switcher(page).locator("option:checked")).toHaveText(hostOrg);

    await page.goto("/billing");
    await switcher(page).selectOption({ label: orgName });
    await page.getByRole("button", { name: "Switch", exact: true }).click();
    await expect(page).toHaveURL(/\/billing$/);
    await expect(switcher(page).locator("option:checked")).toHaveText(orgName);
    await host.context().close();
  });

  test("a long organization name stays inside the switcher, clear of its Switch button", async ({ page }) => {
    await signInWithOrganization(page, "Long Name");
    const long = `Northwind Traders International Holdings ${"and Subsidiaries ".repeat(4)}`.trim().slice(0, 100);
    await createOrganizationWithRequests(page.request, long);
    await page.goto("/team");
    await expect(switcher(page).locator("option:checked")).toHaveText(long);
    // The name's text used to spill over the button and take its clicks.
    await page.getByRole("button", { name: "Switch", exact: true }).click({ timeout: 5_000 });
    await expect(page).toHaveURL(/\/team$/);
  });
});
