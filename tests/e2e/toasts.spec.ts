import type { Page } from "@playwright/test";
import { signInWithOrganization } from "./support/auth";
import { expect, test } from "./support/test";

/**
 * Audit L, WCAG 2.2.1 and 4.1.3: a success goes by itself, but not while it is pointed at or focused;
 * an error stays until dismissed and is announced at once, with or without JavaScript.
 */
async function setCap(page: Page, dollars: string) {
  const cap = page.getByRole("region", { name: "Monthly spend cap" });
  await cap.getByLabel("Monthly spend cap (USD)").fill(dollars);
  await cap.getByRole("button", { name: "Save cap" }).click();
}

/** A refused switch (not a member) comes back with an error toast on the page the switcher was on. */
async function refusedSwitch(page: Page) {
  const refused = await page.request.post("/switch-organization", { form: { organizationId: "999999", redirectTo: "/team" }, maxRedirects: 0 });
  expect(refused.status()).toBe(302);
  await page.goto("/team");
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled });
    // Scripts' timers run on the fake clock; without scripts the expiry is a CSS animation, on real time.
    const wait = async (page: Page, ms: number) => (javaScriptEnabled ? page.clock.runFor(ms) : page.waitForTimeout(ms));

    test("a success waits while the pointer is on it, then goes", async ({ page }) => {
      await page.clock.install();
      await signInWithOrganization(page, javaScriptEnabled ? "ToastHover" : "ToastHoverNoJs");
      await page.goto("/billing");
      await setCap(page, "250");
      const toast = page.getByRole("status").filter({ hasText: "Monthly spend cap set to $250.00." });
      await expect(toast).toBeVisible();
      await toast.hover();
      await wait(page, 6_500);
      await expect(toast).toBeVisible();
      await page.mouse.move(0, 0);
      await wait(page, 6_000);
      await expect(toast).toBeHidden();
    });

    test("an error is an alert, and stays until dismissed", async ({ page }) => {
      await page.clock.install();
      await signInWithOrganization(page, javaScriptEnabled ? "ToastError" : "ToastErrorNoJs");
      await refusedSwitch(page);
      const toast = page.getByRole("alert").filter({ has: page.getByRole("button", { name: "Dismiss" }).or(page.getByLabel("Dismiss")) });
      await expect(toast).toBeVisible();
      await wait(page, javaScriptEnabled ? 30_000 : 6_500);
      await expect(toast).toBeVisible();
      await toast.getByText("✕").click();
      await expect(toast).toBeHidden();
    });
  });
}
