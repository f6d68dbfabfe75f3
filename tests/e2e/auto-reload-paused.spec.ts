import type { Page } from "@playwright/test";
import { signInWithOrganization } from "./support/auth";
import { addCardWithRequests } from "./support/billing";
import { expect, test } from "./support/test";

/**
 * Issue 14 item 5, decision 0091: auto-reload left on after the card is removed can't charge anything and
 * Configure is disabled, so /billing shows it as Paused and offers to turn it off, with or without JavaScript.
 */
const PAUSED = "Paused: there is no payment method to charge. Add one to resume it, or turn auto-reload off.";

async function autoReloadWithoutCard(page: Page, name: string) {
  await signInWithOrganization(page, name);
  await addCardWithRequests(page);
  const saved = await page.request.post("/api/v1/billing/auto-payment-config", { data: { enabled: true, thresholdAmount: 15, rechargeAmount: 30 } });
  expect(saved.ok()).toBe(true);
  expect((await page.request.delete("/api/v1/billing/payment-method")).ok()).toBe(true);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "with JavaScript disabled", () => {
    test.use({ javaScriptEnabled });

    test("auto-reload without a card reads Paused, not Enabled, and can be turned off", async ({ page }) => {
      await autoReloadWithoutCard(page, javaScriptEnabled ? "Paused" : "PausedNoJs");
      await page.goto("/billing");
      const summary = page.getByText("Auto-reload:");
      await expect(summary).toContainText("Paused");
      await expect(summary).not.toContainText("Enabled");
      await expect(page.getByText(PAUSED)).toBeVisible();
      await expect(page.getByText("Adds $30.00 when the balance falls below $15.00.")).toBeVisible();
      await expect(page.getByRole("button", { name: "Configure" })).toBeDisabled();

      await page.getByRole("button", { name: "Turn off auto-reload" }).click();
      await expect(page.getByText("Auto-payment settings updated successfully.")).toBeVisible();
      await expect(summary).toContainText("Disabled");
      await expect(page.getByText(PAUSED)).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Turn off auto-reload" })).toHaveCount(0);
      const config = await page.request.get("/api/v1/billing/config");
      expect(await config.json()).toMatchObject({ paymentMode: "manual", autoPaymentConfig: null });
    });
  });
}

test("with a card, auto-reload reads Enabled and there is nothing to turn off here", async ({ page }) => {
  await signInWithOrganization(page, "EnabledWithCard");
  await addCardWithRequests(page);
  expect((await page.request.post("/api/v1/billing/auto-payment-config", { data: { enabled: true, thresholdAmount: 15, rechargeAmount: 30 } })).ok()).toBe(
    true,
  );
  await page.goto("/billing");
  await expect(page.getByText("Auto-reload:")).toContainText("Enabled");
  await expect(page.getByText(PAUSED)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Turn off auto-reload" })).toHaveCount(0);
});
