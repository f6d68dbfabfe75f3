import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { signInWithOrganization } from "./support/auth";
import { operatorPage } from "./support/system";
import { organizationWithMember } from "./support/team";
import { expect, hydrated, test } from "./support/test";
import { afterBom } from "../csv";

/** Issue 16: the audit log at /audit, for admins, with filters in the URL and a CSV export. */

const rows = (page: Page) => page.getByRole("table", { name: "Audit log" }).locator("tbody tr");

async function createTokens(page: Page, n: number) {
  for (let i = 0; i < n; i++) {
    const response = await page.request.post("/api/v1/tokens", { data: { scopes: ["chat"], expiresAt: null } });
    expect(response.status()).toBe(201);
  }
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("entries show their dates in the viewer's format and name the invite code, and a reversed range says so", async ({ page }) => {
    await signInWithOrganization(page, "Readable");
    const expiresAt = Date.UTC(2027, 0, 15, 9, 30);
    expect((await page.request.post("/api/v1/tokens", { data: { scopes: ["chat"], expiresAt } })).status()).toBe(201);
    const invite = (await (await page.request.post("/api/v1/organizations/invites", { data: { status: "single-use" } })).json()) as { code: string };
    await page.goto("/audit");
    await expect(rows(page).filter({ hasText: "Token created" })).toContainText("Expires: 15 Jan 2027, 09:30");
    await expect(rows(page).filter({ hasText: "Token created" })).not.toContainText(String(expiresAt));
    const made = rows(page).filter({ hasText: "Invite created" });
    await expect(made).toContainText(`${invite.code.slice(0, 4)}…`);
    await expect(made).not.toContainText(invite.code);

    await page.goto("/audit?from=2026-12-01&to=2026-11-01");
    await expect(page.getByText("To is before From: no day is in this range.")).toBeVisible();
    await expect(page.getByRole("search", { name: "Filter the audit log" }).getByLabel("To", { exact: true })).toHaveAttribute("aria-invalid", "true");
  });

  test("an admin filters the log by action and actor, and the filters stay in the URL", async ({ page }) => {
    const { person } = await signInWithOrganization(page);
    await createTokens(page, 2);
    await page.goto("/team");
    await page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "Audit Log" }).click();
    await expect(page).toHaveURL(/\/audit$/);
    await expect(page.getByRole("heading", { name: "Audit Log", level: 1 })).toBeVisible();
    // Newest first: the two tokens, then the organization's creation.
    await expect(rows(page).first()).toContainText("Token created");
    await expect(rows(page).filter({ hasText: "Organization created" })).toHaveCount(1);
    await expect(rows(page).first()).toContainText(person.email);

    const filters = page.getByRole("search", { name: "Filter the audit log" });
    await filters.getByLabel("Action").selectOption({ label: "Token created" });
    await filters.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/[?&]action=token\.created/);
    await expect(rows(page)).toHaveCount(2);
    await expect(filters.getByLabel("Action")).toHaveValue("token.created");

    await filters.getByLabel("Actor email").fill("nobody@example.test");
    await filters.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/actor=nobody%40example\.test/);
    // A status, so a screen reader hears that the filter found nothing; and no empty pages landmark.
    await expect(page.getByRole("status").filter({ hasText: "No entries match these filters." })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Audit log pages" })).toHaveCount(0);

    // The same view from its URL alone (a shared link), with a date range.
    const today = new Date().toISOString().slice(0, 10);
    await page.goto(`/audit?action=token.created&actor=${encodeURIComponent(person.email)}&from=${today}&to=${today}`);
    await expect(rows(page)).toHaveCount(2);
    await page.goto("/audit?action=token.created&to=2000-01-01");
    await expect(page.getByText("No entries match these filters.")).toBeVisible();
  });

  test("a member has no Audit Log link and no access to /audit", async ({ page, browser, baseURL }) => {
    const { member } = await organizationWithMember(page, browser, baseURL!);
    await member.page.goto("/team");
    await expect(member.page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "API Tokens" })).toBeVisible();
    await expect(member.page.getByRole("link", { name: "Audit Log" })).toHaveCount(0);
    const response = await member.page.goto("/audit");
    expect(response?.status()).toBe(403);
    await expect(member.page.getByText("No access")).toBeVisible();
    await expect(member.page.getByRole("heading", { name: "Audit Log", level: 1 })).toBeVisible();
    // The browser's tab names the page that failed too, in the document the server sent.
    await expect(member.page).toHaveTitle("Audit Log · AI Console");
    expect(await (await member.page.request.get("/audit")).text()).toContain("<title>Audit Log · AI Console</title>");
    expect((await member.page.request.get("/audit.csv")).status()).toBe(403);
    expect((await member.page.request.get("/api/v1/audit")).status()).toBe(403);
  });
});

test("an admin downloads the filtered log as CSV", async ({ page }) => {
  const { person } = await signInWithOrganization(page);
  await createTokens(page, 3);
  await page.goto("/audit?action=token.created");
  await expect(rows(page)).toHaveCount(3);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = afterBom(await readFile((await download.path())!))
    .trimEnd()
    .split("\r\n");
  expect(lines[0]).toBe("id,timestamp,organization_id,action,actor_name,actor_email,target,old_value,new_value,address,actor_email_verified");
  expect(lines).toHaveLength(4);
  for (const line of lines.slice(1)) {
    expect(line).toContain(",token.created,");
    expect(line).toContain(person.email);
    expect(line).not.toMatch(/sk-[A-Za-z0-9_-]{20,}/);
  }
});

test("Apply filters by keyboard keeps the focus on it, and Clear and Back show the URL's filters again", async ({ page }) => {
  const { person } = await signInWithOrganization(page);
  await createTokens(page, 2);
  await page.goto("/audit");
  await hydrated(page);
  const filters = page.getByRole("search", { name: "Filter the audit log" });
  const apply = filters.getByRole("button", { name: "Apply filters" });
  await filters.getByLabel("Action").selectOption({ label: "Token created" });
  await filters.getByLabel("Actor email").fill(person.email);
  await apply.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`[?&]action=token\\.created&actor=${encodeURIComponent(person.email)}`));
  await expect(rows(page)).toHaveCount(2);
  // The form was not drawn anew: the button used keeps the focus, and Tab goes on to the next control.
  await expect(apply).toBeFocused();
  await expect(filters.getByLabel("Actor email")).toHaveValue(person.email);
  await page.keyboard.press("Tab");
  await expect(filters.getByRole("link", { name: "Clear" })).toBeFocused();

  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/audit$/);
  await expect(filters.getByLabel("Action")).toHaveValue("");
  await expect(filters.getByLabel("Actor email")).toHaveValue("");
  await expect(rows(page).filter({ hasText: "Organization created" })).toHaveCount(1);

  await page.goBack();
  await expect(page).toHaveURL(/actor=/);
  await expect(filters.getByLabel("Action")).toHaveValue("token.created");
  await expect(filters.getByLabel("Actor email")).toHaveValue(person.email);
  await expect(rows(page)).toHaveCount(2);
});

test("in the system organization each entry names its organization, which filters the log by a link or by its ID", async ({ page, browser, baseURL }) => {
  const { person, orgName, orgId } = await signInWithOrganization(page, "Audited");
  await createTokens(page, 1);
  const operator = await operatorPage(browser, baseURL!);
  await operator.goto("/audit");
  await expect(operator.getByRole("heading", { name: "Entries of every organization" })).toBeVisible();

  const filters = operator.getByRole("search", { name: "Filter the audit log" });
  await filters.getByLabel("Actor email").fill(person.email);
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(rows(operator).first()).toContainText("Token created");
  await expect(rows(operator).first()).toContainText(`${orgName}#${orgId}`);
  // The organization's name leads to its own entries, keeping the other filters.
  await rows(operator).first().getByRole("link", { name: orgName }).click();
  await expect(operator).toHaveURL(new RegExp(`actor=${encodeURIComponent(person.email)}.*organization=${orgId}`));
  await expect(operator.getByRole("heading", { name: `Entries of ${orgName} (#${orgId})` })).toBeVisible();
  await expect(filters.getByLabel("Organization ID")).toHaveValue(String(orgId));

  // By its ID alone: that organization's entries only.
  await operator.getByRole("link", { name: "Clear" }).click();
  await expect(operator).toHaveURL(/\/audit$/);
  await expect(filters.getByLabel("Actor email")).toHaveValue("");
  await expect(filters.getByLabel("Organization ID")).toHaveValue("");
  await filters.getByLabel("Organization ID").fill(String(orgId));
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(operator).toHaveURL(new RegExp(`[?&]organization=${orgId}(&|$)`));
  await expect(operator).not.toHaveURL(/actor=[^&]/);
  await expect(rows(operator)).toHaveCount(2);
  await expect(rows(operator).filter({ hasText: "Organization created" })).toContainText(orgName);
  await operator.context().close();
});
