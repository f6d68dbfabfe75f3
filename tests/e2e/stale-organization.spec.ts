import type { APIRequestContext, Page } from "@playwright/test";
import { createOrganizationWithRequests, signInWithOrganization } from "./support/auth";
import { expect, test } from "./support/test";
import { isolate } from "~/lib/bidi";

/**
 * Decision 0098: the active organization belongs to the session, shared by every tab. A page left open
 * for one organization, after another tab made another one active, must not act on the other one.
 */

async function twoOrganizations(page: Page) {
  const { orgName: first, orgId: firstId } = await signInWithOrganization(page, "TwoTabs");
  const second = `Second ${first}`;
  const secondId = await createOrganizationWithRequests(page.request, second);
  await activate(page.request, firstId);
  return { first, firstId, second, secondId };
}

/** What another tab does: makes another organization active. */
async function activate(request: APIRequestContext, organizationId: number) {
  expect((await request.post("/api/v1/auth/switch", { data: { organizationId } })).ok()).toBe(true);
}

const refusal = (first: string, second: string) =>
  `Nothing was changed: this page was for ${isolate(first)}, and ${isolate(second)} has since been made active in another tab. The page now shows ${isolate(second)}.`;

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "with JavaScript disabled", () => {
    test.use({ javaScriptEnabled });

    test("a form on a page of an organization no longer active changes nothing, and says why", async ({ page }) => {
      const { first, firstId, second, secondId } = await twoOrganizations(page);
      await page.goto("/team");
      await expect(page.getByLabel("Active organization").locator("option:checked")).toHaveText(first);

      await activate(page.request, secondId);
      await page.getByRole("button", { name: "Single-use invite" }).click();
      await expect(page.getByRole("alert").filter({ hasText: refusal(first, second) })).toBeVisible();
      await expect(page.getByLabel("Active organization").locator("option:checked")).toHaveText(second);
      expect(await (await page.request.get("/api/v1/organizations/invites")).json()).toEqual([]);
      await activate(page.request, firstId);
      expect(await (await page.request.get("/api/v1/organizations/invites")).json()).toEqual([]);

      // The money forms too: a spend cap typed on the first organization's page is not set on the second.
      await page.goto("/billing");
      await activate(page.request, secondId);
      const cap = page.getByRole("region", { name: "Monthly spend cap" });
      await cap.getByLabel("Monthly spend cap (USD)").fill("123");
      await cap.getByRole("button", { name: "Save cap" }).click();
      await expect(page.getByRole("alert").filter({ hasText: refusal(first, second) })).toBeVisible();
      expect(await (await page.request.get("/api/v1/billing/spend-cap")).json()).toMatchObject({ monthlyCap: null });
    });
  });
}

test("a chat sent from a page of an organization no longer active is not sent, nor charged", async ({ page }) => {
  const { first, second, secondId } = await twoOrganizations(page);
  await page.goto("/chat?model=builtin");
  await expect(page.getByRole("button", { name: /^Model Built-in development model/ })).toBeVisible();
  await activate(page.request, secondId);
  const input = page.getByRole("textbox", { name: "Message" });
  await input.fill("Who pays for this?");
  await input.press("Enter");
  await expect(page.getByRole("alert")).toContainText(
    `Nothing was sent: this page was for ${isolate(first)}, and ${isolate(second)} has since been made active in another tab.`,
  );
  // Refused before the platform was called: no reply, nothing metered.
  await expect(page.getByRole("listitem", { name: "Assistant message" })).toHaveCount(0);
  // The page now shows the active organization, as the refusal says, and the message waits in the box
  // to be sent there, which works.
  await expect(page.getByLabel("Active organization").locator("option:checked")).toHaveText(second);
  await expect(page.getByRole("listitem", { name: "Your message" })).toHaveCount(0);
  await expect(input).toHaveValue("Who pays for this?");
  await input.press("Enter");
  await expect(page.getByRole("listitem", { name: "Assistant message" })).toHaveCount(1);
  await expect(page.getByRole("alert").filter({ hasText: "Nothing was sent" })).toHaveCount(0);
});

test("a chat sent after being removed from the page's only organization says so and leads to creating or joining one", async ({ page, browser }) => {
  const { orgName } = await signInWithOrganization(page, "Removed");
  const adminPage = await browser.newPage();
  try {
    // A second admin of the organization, who removes the first person.
    await signInWithOrganization(adminPage, "Remover");
    const code = await page.request.post("/api/v1/organizations/invites", { data: { status: "single-use" } });
    expect(code.ok()).toBe(true);
    const joined = await adminPage.request.post(`/api/v1/auth/join/${((await code.json()) as { code: string }).code}`);
    expect(joined.ok()).toBe(true);
    const members = (await (await adminPage.request.get("/api/v1/organizations/members")).json()) as { id: number; name: string; role: string }[];
    const remover = members.find((m) => m.name.startsWith("Remover"))!;
    expect((await page.request.put(`/api/v1/organizations/members/${remover.id}`, { data: { role: "admin" } })).ok()).toBe(true);
    await page.goto("/chat?model=builtin");
    await expect(page.getByText(orgName).first()).toBeVisible();
    const removed = members.find((m) => m.name.startsWith("Removed"))!;
    expect((await adminPage.request.delete(`/api/v1/organizations/members/${removed.id}`)).ok()).toBe(true);

    const input = page.getByRole("textbox", { name: "Message" });
    await input.fill("Still here?");
    await input.press("Enter");
    await expect(page).toHaveURL(/\/welcome/);
  } finally {
    await adminPage.close();
  }
});

test("an export from a page of an organization no longer active downloads nothing, and says why", async ({ page }) => {
  const { first, firstId, second, secondId } = await twoOrganizations(page);
  const refused = `Nothing was downloaded: this page was for ${isolate(first)}, and ${isolate(second)} has since been made active in another tab. The page now shows ${isolate(second)}.`;
  const exports: [string, () => Promise<void>][] = [
    ["/billing", () => page.getByRole("button", { name: "Export ledger (CSV)" }).click()],
    ["/usage", () => page.getByRole("link", { name: "Export CSV" }).click()],
    ["/audit", () => page.getByRole("link", { name: "Export CSV" }).click()],
  ];
  for (const [path, exportIt] of exports) {
    await activate(page.request, firstId);
    await page.goto(path);
    await expect(page.getByLabel("Active organization").locator("option:checked")).toHaveText(first);
    await activate(page.request, secondId);
    let downloaded = false;
    page.once("download", () => (downloaded = true));
    await exportIt();
    await expect(page.getByRole("alert").filter({ hasText: refused })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByLabel("Active organization").locator("option:checked")).toHaveText(second);
    expect(downloaded, path).toBe(false);
  }
});
