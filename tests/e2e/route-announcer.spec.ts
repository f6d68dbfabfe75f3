import type { Page } from "@playwright/test";
import { signInWithOrganization } from "./support/auth";
import { expect, hydrated, test } from "./support/test";

/**
 * A page opened without a page load is said to screen readers: its title goes to a polite live region
 * (audit L, entry 8). A dialog opened in the same page (`?dialog=`) is not a new page.
 */

const announcer = (page: Page) => page.locator('#route-announcer[aria-live="polite"]');

test("after a sidebar link the live region says the new page's title, and a dialog on it changes nothing", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInWithOrganization(page, "Announce");
  await page.goto("/team");
  await hydrated(page);
  await expect(announcer(page)).toHaveText("");

  await page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "Billing" }).click();
  await expect(page.getByRole("heading", { name: "Billing", level: 1 })).toBeVisible();
  await expect(announcer(page)).toHaveText(await page.title());
  await expect(announcer(page)).toHaveText(/^Billing · /);

  await page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "API Tokens" }).click();
  await expect(announcer(page)).toHaveText(/^API Tokens · /);

  // Same path, a dialog in the query: the region keeps its text (nothing new to say).
  await page.goto("/billing");
  await hydrated(page);
  await page.getByRole("link", { name: "Set up payment method" }).click();
  // Named by its own heading (the card behind it had taken the heading's id: one id, two elements).
  await expect(page.getByRole("dialog", { name: "Set up payment method" })).toBeVisible();
  await page.waitForTimeout(300);
  await expect(announcer(page)).toHaveText("");
});
