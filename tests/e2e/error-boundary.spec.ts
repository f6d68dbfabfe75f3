import { signInWithOrganization } from "./support/auth";
import { expect, test } from "./support/test";

test("an unknown page inside the console says 'Page not found' and keeps the sidebar and header", async ({ page }) => {
  await signInWithOrganization(page, "Lost");
  const response = await page.goto("/no-such-page/at-all");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page.getByText("We couldn't find that page.")).toBeVisible();

  // The layout survived the page's error: the sidebar's links and the account menu still work.
  const sidebar = page.getByRole("complementary", { name: "Sidebar" });
  await expect(sidebar).toBeVisible();
  await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible();
  await sidebar.getByRole("link", { name: "Team" }).click();
  await expect(page).toHaveURL(/\/team$/);
  await expect(page.getByRole("heading", { name: "Team", exact: true })).toBeVisible();
});
