import type { Page } from "@playwright/test";
import { signInWithOrganization } from "./support/auth";
import { expect, test } from "./support/test";

/** Issue 16: "Roll" gives a token a new secret shown once; the old one works for the chosen grace period. */

const row = (page: Page, publicId: string) => page.getByRole("table", { name: "API tokens" }).locator(`tbody tr[data-token="${publicId}"]`);

async function status(page: Page, secret: string): Promise<number> {
  return (await page.request.get("/openai/v1/models", { headers: { authorization: `Bearer ${secret}` } })).status();
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled });

    test("an admin rolls a token: the new secret once, the old one still working for the grace period", async ({ page }) => {
      await signInWithOrganization(page);
      const created = await (await page.request.post("/api/v1/tokens", { data: { scopes: ["models:read"], expiresAt: null } })).json();
      await page.goto("/tokens");
      const token = row(page, created.publicId);
      await token.getByRole("button", { name: `Roll ${created.publicId}` }).click();
      const dialog = page.getByRole("dialog", { name: `Roll ${created.publicId}` });
      await expect(dialog.getByLabel("Old secret keeps working for").locator("option")).toHaveText(["None: refuse it now", "1 hour", "24 hours", "7 days"]);
      await dialog.getByLabel("Old secret keeps working for").selectOption({ label: "1 hour" });
      await dialog.getByRole("button", { name: "Roll token" }).click();

      const reveal = page.getByRole("region", { name: "Token rolled" });
      await expect(reveal).toContainText("you will not see it again");
      await expect(reveal).toContainText(`The previous secret of ${created.publicId} keeps working until`);
      const secret = (await reveal.getByLabel("New token secret").textContent())!.trim();
      expect(secret).toMatch(/^sk-[A-Za-z0-9_-]{43}$/);
      expect(secret).not.toBe(created.token);
      await expect(row(page, created.publicId)).toContainText("Previous secret works until");

      expect(await status(page, secret)).toBe(200);
      expect(await status(page, created.token)).toBe(200);

      // A fresh visit (a reload without JavaScript would post the form again).
      await page.goto("/tokens");
      await expect(page.getByRole("region", { name: "Token rolled" })).toHaveCount(0);
      expect(await page.content()).not.toContain(secret);
      await expect(row(page, created.publicId)).toContainText("Previous secret works until");
    });
  });
}

test("rolling with no grace period refuses the old secret at once", async ({ page }) => {
  await signInWithOrganization(page);
  const created = await (await page.request.post("/api/v1/tokens", { data: { scopes: ["models:read"], expiresAt: null } })).json();
  await page.goto("/tokens");
  await row(page, created.publicId)
    .getByRole("button", { name: `Roll ${created.publicId}` })
    .click();
  const dialog = page.getByRole("dialog", { name: `Roll ${created.publicId}` });
  await dialog.getByLabel("Old secret keeps working for").selectOption("none");
  await dialog.getByRole("button", { name: "Roll token" }).click();
  const reveal = page.getByRole("region", { name: "Token rolled" });
  await expect(reveal).toContainText("is refused from now on");
  const secret = (await reveal.getByLabel("New token secret").textContent())!.trim();
  expect(await status(page, created.token)).toBe(401);
  expect(await status(page, secret)).toBe(200);
  await expect(row(page, created.publicId)).not.toContainText("Previous secret works until");
});

test("a rolled token that is then revoked no longer says its previous secret works", async ({ page }) => {
  await signInWithOrganization(page);
  const created = await (await page.request.post("/api/v1/tokens", { data: { scopes: ["models:read"], expiresAt: null } })).json();
  expect((await page.request.post(`/api/v1/tokens/${created.publicId}/roll`, { data: { grace: "24h" } })).ok()).toBe(true);
  await page.goto("/tokens");
  await expect(row(page, created.publicId)).toContainText("Previous secret works until");
  expect((await page.request.delete(`/api/v1/tokens/${created.publicId}`)).ok()).toBe(true);
  expect(await status(page, created.token)).toBe(401);
  await page.goto("/tokens");
  await expect(row(page, created.publicId)).toContainText("revoked");
  await expect(row(page, created.publicId)).not.toContainText("Previous secret works until");
});

test("a roll from a page made before another admin's roll is refused, and the secret in use keeps working", async ({ page }) => {
  await signInWithOrganization(page);
  const created = await (await page.request.post("/api/v1/tokens", { data: { scopes: ["models:read"], expiresAt: null } })).json();
  await page.goto("/tokens");
  // Another admin (or this one's other tab) rolls it with a grace period while this page is open.
  const theirs = await page.request.post(`/api/v1/tokens/${created.publicId}/roll`, { data: { grace: "24h" } });
  expect(theirs.status()).toBe(200);
  const token = row(page, created.publicId);
  await token.getByRole("button", { name: `Roll ${created.publicId}` }).click();
  const dialog = page.getByRole("dialog", { name: `Roll ${created.publicId}` });
  await dialog.getByRole("button", { name: "Roll token" }).click();
  await expect(page.getByText("This token was changed since this page was loaded")).toBeVisible();
  await expect(page.getByRole("region", { name: "Token rolled" })).toHaveCount(0);
  // The first secret keeps the grace the other roll gave it.
  expect(await status(page, created.token)).toBe(200);
});
