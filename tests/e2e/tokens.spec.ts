import type { Page } from "@playwright/test";
import { createOrganizationWithRequests, signInWithOrganization } from "./support/auth";
import { organizationWithMember } from "./support/team";
import { expect, test } from "./support/test";

/** 24-hour local format, as formatDateTime renders it: "05 Jun 2025, 14:03". */
const DATE_TIME = /^\d{2} [A-Z][a-z]{2} \d{4}, ([01]\d|2[0-3]):[0-5]\d$/;

const tokenRows = (page: Page) => page.getByRole("table", { name: "API tokens" }).locator("tbody tr");

test("an admin creates a token: the secret appears once and is gone after reload; then revokes it", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signInWithOrganization(page);
  await page.goto("/tokens");

  // Only the primary organization token at first.
  await expect(tokenRows(page)).toHaveCount(1);
  await expect(tokenRows(page).first()).toContainText("primary");
  await expect(tokenRows(page).first().getByRole("button", { name: "Revoke" })).toHaveCount(0);

  const form = page.getByRole("region", { name: "Create API token" });
  await expect(form.getByLabel("Expiry")).toHaveValue("30");
  await expect(form.getByLabel("Expiry").locator("option")).toHaveText(["1 day", "7 days", "30 days", "Never"]);
  for (const scope of ["chat", "models:read", "images", "audio"]) await expect(form.getByLabel(scope, { exact: true })).toBeVisible();
  await form.getByLabel("chat", { exact: true }).check();
  await form.getByLabel("models:read", { exact: true }).check();
  await form.getByLabel("Expiry").selectOption("7");
  await form.getByRole("button", { name: "Create token" }).click();

  const reveal = page.getByRole("region", { name: "Token created" });
  await expect(reveal).toContainText("you will not see it again");
  const secret = (await reveal.getByLabel("New token secret").textContent())!.trim();
  expect(secret).toMatch(/^sk-[A-Za-z0-9_-]{43}$/);
  await reveal.getByRole("button", { name: "Copy token" }).click();
  await expect(reveal.getByRole("button", { name: "Copied!" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

  // The form starts afresh for the next token: every scope checked again (issue 11).
  await expect(form.getByLabel("Expiry")).toHaveValue("30");
  await expect(form.getByLabel("chat", { exact: true })).toBeChecked();

  await expect(tokenRows(page)).toHaveCount(2);
  // SPEC §4: a token expiring within 7 days comes first, above the primary token (issue 14).
  const created = tokenRows(page).nth(0);
  await expect(tokenRows(page).nth(1)).toContainText("primary");
  await expect(created).toContainText("active");
  await expect(created).toContainText("chat");
  await expect(created).toContainText("models:read");
  // Expiring within 7 days: the warning icon.
  await expect(created.getByRole("img", { name: "Expires within 7 days" })).toBeVisible();
  await expect(created.locator("td").nth(3)).toHaveText(DATE_TIME);
  await expect(created.locator("td").nth(4)).toHaveText(DATE_TIME);

  await page.reload();
  await expect(page.getByRole("region", { name: "Token created" })).toHaveCount(0);
  await expect(page.getByText(secret)).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);
  await expect(tokenRows(page)).toHaveCount(2);

  const row = tokenRows(page).nth(0);
  await row.getByRole("button", { name: "Revoke" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("Requests using it are refused");
  await confirm.getByRole("button", { name: "Revoke token" }).click();
  await expect(page.getByRole("status").filter({ hasText: "revoked." })).toBeVisible();
  await expect(tokenRows(page).nth(1)).toContainText("revoked");
  await expect(tokenRows(page).nth(1).getByRole("button", { name: "Revoke" })).toHaveCount(0);
  await expect(
    tokenRows(page)
      .nth(1)
      .getByRole("img", { name: /Expire/ }),
  ).toHaveCount(0);
});

test("a new token's secret stays shown while its Settings open, and is gone once the page is left", async ({ page }) => {
  await signInWithOrganization(page);
  await page.goto("/tokens");
  await page.getByRole("region", { name: "Create API token" }).getByRole("button", { name: "Create token" }).click();
  const reveal = page.getByRole("region", { name: "Token created" });
  const secret = (await reveal.getByLabel("New token secret").textContent())!.trim();
  expect(secret).toMatch(/^sk-/);

  // Setting the new token's budget is the natural next step: the secret must not go with the navigation.
  await tokenRows(page)
    .first()
    .getByRole("link", { name: /^Settings of / })
    .click();
  await expect(page).toHaveURL(/\/tokens\?edit=tok_/);
  await expect(page.getByRole("region", { name: /^Settings of / })).toBeVisible();
  await expect(reveal.getByLabel("New token secret")).toHaveText(secret);

  await page.getByRole("link", { name: "Team", exact: true }).click();
  await expect(page).toHaveURL(/\/team$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/tokens\?edit=tok_/);
  await expect(page.getByRole("region", { name: /^Settings of / })).toBeVisible();
  await expect(page.getByRole("region", { name: "Token created" })).toHaveCount(0);
});

test("a new token's secret is not shown under another organization made active from the switcher", async ({ page }) => {
  const { orgName: first, orgId: firstId } = await signInWithOrganization(page, "SecretSwitch");
  const second = `Second ${first}`;
  await createOrganizationWithRequests(page.request, second);
  expect((await page.request.post("/api/v1/auth/switch", { data: { organizationId: firstId } })).ok()).toBe(true);
  await page.goto("/tokens");
  await page.getByRole("region", { name: "Create API token" }).getByRole("button", { name: "Create token" }).click();
  await expect(page.getByRole("region", { name: "Token created" })).toBeVisible();

  await page.getByLabel("Active organization").selectOption({ label: second });
  await expect(page.getByLabel("Active organization").locator("option:checked")).toHaveText(second);
  await expect(page).toHaveURL(/\/tokens$/);
  await expect(page.getByRole("region", { name: "Token created" })).toHaveCount(0);
});

test("a token with no scope and no expiry can be created", async ({ page }) => {
  await signInWithOrganization(page);
  await page.goto("/tokens");
  const form = page.getByRole("region", { name: "Create API token" });
  // Every scope starts checked (issue 11); an admin may still clear them all (SPEC §5).
  for (const scope of ["chat", "models:read", "images", "audio"]) await form.getByLabel(scope, { exact: true }).uncheck();
  await form.getByLabel("Expiry").selectOption("never");
  await form.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByRole("region", { name: "Token created" })).toBeVisible();
  const created = tokenRows(page).nth(1);
  await expect(created).toContainText("none");
  await expect(created.locator("td").nth(4)).toHaveText("Never");
});

test("an admin resets the organization token after a confirmation that says it can't be undone", async ({ page }) => {
  await signInWithOrganization(page);
  await page.goto("/tokens");
  const danger = page.getByRole("region", { name: "Danger zone" });
  await danger.getByRole("button", { name: "Reset organization token" }).click();
  const confirm = danger.getByRole("alertdialog");
  await expect(confirm).toContainText("This can't be undone.");
  await confirm.getByRole("button", { name: "Reset token" }).click();
  const reveal = page.getByRole("region", { name: "Organization token reset" });
  await expect(reveal).toContainText("you will not see it again");
  await expect(reveal.getByLabel("New token secret")).toHaveText(/^sk-/);
  await expect(tokenRows(page)).toHaveCount(1);
});

test("a member sees the token list without the create form, Revoke or the danger zone", async ({ page, browser, baseURL }) => {
  const { member } = await organizationWithMember(page, browser, baseURL!);
  await page.goto("/tokens");
  const form = page.getByRole("region", { name: "Create API token" });
  await form.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByRole("region", { name: "Token created" })).toBeVisible();

  const memberPage = member.page;
  await memberPage.goto("/tokens");
  await expect(tokenRows(memberPage)).toHaveCount(2);
  await expect(tokenRows(memberPage).first()).toContainText("primary");
  await expect(tokenRows(memberPage).nth(1)).toContainText("active");
  await expect(memberPage.getByRole("region", { name: "Create API token" })).toHaveCount(0);
  await expect(memberPage.getByRole("button", { name: "Revoke" })).toHaveCount(0);
  await expect(memberPage.getByRole("region", { name: "Danger zone" })).toHaveCount(0);
  await expect(memberPage.getByRole("button", { name: "Reset organization token" })).toHaveCount(0);
  await memberPage.context().close();
});

test("revoking a token already revoked elsewhere shows the platform's error text", async ({ page }) => {
  await signInWithOrganization(page);
  const created = await page.request.post("/api/v1/tokens", { data: { scopes: ["chat"], expiresAt: null } });
  const { publicId } = (await created.json()) as { publicId: string };
  await page.goto("/tokens");
  await expect(page.getByRole("alert")).toHaveCount(0);
  expect((await page.request.delete(`/api/v1/tokens/${publicId}`)).ok()).toBe(true);
  await tokenRows(page).nth(1).getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke token" }).click();
  await expect(page.getByRole("alert")).toHaveText("This token is already revoked");
  await expect(tokenRows(page).nth(1)).toContainText("revoked");
});

test.describe("with JavaScript disabled", () => {
  test.use({ javaScriptEnabled: false });

  test("an admin creates a token and revokes it after confirming", async ({ page }) => {
    await signInWithOrganization(page);
    await page.goto("/tokens");
    const form = page.getByRole("region", { name: "Create API token" });
    await form.getByLabel("audio", { exact: true }).check();
    const created = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/tokens");
    await form.getByRole("button", { name: "Create token" }).click();
    await expect(page.getByRole("region", { name: "Token created" })).toContainText("you will not see it again");
    await expect(page.getByLabel("New token secret")).toHaveText(/^sk-/);
    // The page with the secret is not kept by the browser, for Back to show again after signing out.
    expect((await created).headers()["cache-control"]).toBe("no-store");

    await tokenRows(page).nth(1).getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Revoke token" }).click();
    await expect(page.getByRole("status").filter({ hasText: "revoked." })).toBeVisible();
    await expect(tokenRows(page).nth(1)).toContainText("revoked");
    await expect(page.getByLabel("New token secret")).toHaveCount(0);
  });
});
