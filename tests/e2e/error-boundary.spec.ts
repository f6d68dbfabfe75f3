import { signInWithOrganization } from "./support/auth";
import { expect, test } from "./support/test";

test("an unknown page inside the console says 'Page not found' and keeps the sidebar and header", async ({ page }) => {
  await signInWithOrganization(page, "Lost");
  const response = await page.goto("/no-such-page/at-all");
  expect(response?.status()).toBe(404);
  // One heading says so, the header's: the card under it does not repeat it (audit L).
  await expect(page.getByRole("heading", { name: "Page not found", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Page not found" })).toHaveCount(1);
  await expect(page.getByText("Page not found", { exact: true })).toHaveCount(1);
  await expect(page.getByText("404", { exact: true })).toBeVisible();
  await expect(page.getByText("We couldn't find that page.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Go home" })).toBeVisible();
  await expect(page).toHaveTitle("Page not found · AI Console");

  // The layout survived the page's error: the sidebar's links and the account menu still work.
  const sidebar = page.getByRole("complementary", { name: "Sidebar" });
  await expect(sidebar).toBeVisible();
  await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible();
  await sidebar.getByRole("link", { name: "Team" }).click();
  await expect(page).toHaveURL(/\/team$/);
  await expect(page.getByRole("heading", { name: "Team", exact: true })).toBeVisible();
});

test("a page that is not found under another page's name keeps the card's heading, under the page's", async ({ page }) => {
  await signInWithOrganization(page, "LostModel");
  const response = await page.goto("/models/no-such-model-here");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Models", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Page not found", level: 2 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Page not found" })).toHaveCount(1);
});

test("the browser's tab names the page, after client-side navigation too", async ({ page }) => {
  await signInWithOrganization(page, "Titled");
  await page.goto("/team");
  await expect(page).toHaveTitle("Team · AI Console");
  const sidebar = page.getByRole("complementary", { name: "Sidebar" });
  await sidebar.getByRole("link", { name: "API Tokens" }).click();
  await expect(page).toHaveURL(/\/tokens$/);
  await expect(page).toHaveTitle("API Tokens · AI Console");
  // A page whose title comes from its data or its address.
  await page.goto("/models/builtin");
  await expect(page).toHaveTitle("Built-in development model · AI Console");
  await page.goto("/playground/data");
  await expect(page).toHaveTitle("Data · Playground · AI Console");
  await page.goto("/playground/image/text-to-image");
  await expect(page).toHaveTitle("Text to Image · Playground · AI Console");
  await page.goto("/playground/nowhere");
  await expect(page).toHaveTitle("Playground · AI Console");
  await page.goto("/no-such-page");
  await expect(page).toHaveTitle("Page not found · AI Console");
});
