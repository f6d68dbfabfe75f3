import { signInWithOrganization } from "./support/auth";
import { addCardThroughDialog, addCardWithRequests, blockStripeJs, grantCreditWithCli, setBillingMode, useFakeStripe, writeDatabase } from "./support/billing";
import { expect, hydrated, test, visibleText } from "./support/test";

const BANNER = "No Payment Method: Your organization does not have a payment method set up.";

test("without a payment method: the banner, disabled add funds and configure, and an empty ledger", async ({ page }) => {
  await signInWithOrganization(page);
  await page.goto("/billing");
  await expect(page.getByText(BANNER)).toBeVisible();
  await expect(page.getByRole("button", { name: "Add funds" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Configure" })).toBeDisabled();
  await expect(page.getByTestId("balance")).toHaveText("$0.00");
  await expect(page.getByText("Auto-reload:")).toContainText("Disabled");
  await expect(page.getByText("No recent activity.")).toBeVisible();
});

test("set up a payment method through the card form, then add $25 and see the row and the balance", async ({ page }) => {
  await useFakeStripe(page);
  await signInWithOrganization(page);
  await addCardThroughDialog(page);
  await expect(page.getByText("Payment method added successfully.")).toBeVisible();
  // The page reloads after 2 s, without the dialog, with the card and without the banner.
  await expect(page).toHaveURL(/\/billing$/);
  await expect(page.getByText("Visa •••• 4242")).toBeVisible();
  await expect(page.getByText(BANNER)).toHaveCount(0);

  await page.getByRole("link", { name: "Add funds" }).click();
  const dialog = page.getByRole("dialog", { name: "Add funds" });
  await expect(dialog.getByLabel("Amount (USD)")).toHaveValue("10");
  await dialog.getByRole("link", { name: "$25" }).click();
  await expect(dialog.getByLabel("Amount (USD)")).toHaveValue("25");
  await dialog.getByRole("button", { name: "Add funds" }).click();
  await expect(page.getByText("Adding funds successful! Balance will update shortly.")).toBeVisible();
  await expect(page.getByTestId("balance")).toHaveText("$25.00");
  const row = page.getByRole("row").filter({ hasText: "Added funds" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("+$25.00");
  await expect(row.getByRole("cell").first()).toHaveText(/^\d{2} \w{3} \d{4}, \d{2}:\d{2}$/);
});

test("the add-funds button is disabled below the $10 minimum, and the dialog says why as the amount is typed", async ({ page }) => {
  await signInWithOrganization(page);
  await addCardWithRequests(page);
  await page.goto("/billing?dialog=add-funds");
  const dialog = page.getByRole("dialog", { name: "Add funds" });
  // The modal takes focus on its first field.
  await expect(dialog.getByLabel("Amount (USD)")).toBeFocused();
  await dialog.getByLabel("Amount (USD)").fill("9");
  await expect(dialog.getByRole("button", { name: "Add funds" })).toBeDisabled();
  await expect(dialog.getByText("Amount must be at least $10")).toBeVisible();
  await dialog.getByLabel("Amount (USD)").fill("10.123");
  await expect(dialog.getByText("Amount must have at most 2 decimals")).toBeVisible();
  await expect(dialog.getByLabel("Amount (USD)")).toHaveAttribute("aria-invalid", "true");
  await dialog.getByLabel("Amount (USD)").fill("10");
  await expect(dialog.getByRole("button", { name: "Add funds" })).toBeEnabled();
  await expect(dialog.getByText("Amount must")).toHaveCount(0);

  // Tab stays in the modal: past its last control it comes back to its first.
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((box) => box.contains(document.activeElement))).toBe(true);
  }
});

test("a declined charge shows the provider's error and keeps the amount", async ({ page }) => {
  await signInWithOrganization(page);
  await addCardWithRequests(page, "4000000000000341");
  await page.goto("/billing?dialog=add-funds");
  const dialog = page.getByRole("dialog", { name: "Add funds" });
  await dialog.getByLabel("Amount (USD)").fill("30");
  await dialog.getByRole("button", { name: "Add funds" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Your card was declined.");
  await expect(dialog.getByLabel("Amount (USD)")).toHaveValue("30");
  await expect(page.getByTestId("balance")).toHaveText("$0.00");

  // The member sorts the card out (here: another one) and tries again from the same dialog: a new
  // charge, not the declined one replayed.
  await addCardWithRequests(page);
  await dialog.getByRole("button", { name: "Add funds" }).click();
  await expect(page.getByText("Adding funds successful! Balance will update shortly.")).toBeVisible();
  await expect(page.getByTestId("balance")).toHaveText("$30.00");
});

test("a charge whose outcome is unknown (Stripe unreachable) is the same charge when tried again, with or without JavaScript", async ({
  page,
  browser,
  baseURL,
}) => {
  await signInWithOrganization(page);
  await addCardWithRequests(page);
  const noJsContext = await browser.newContext({ javaScriptEnabled: false, baseURL, storageState: await page.context().storageState() });
  await noJsContext.addCookies([{ name: "CH-time-zone", value: "UTC", url: baseURL! }]);
  const noJs = await noJsContext.newPage();
  for (const [tab, balance] of [
    [page, "$13.13"],
    [noJs, "$26.26"],
  ] as const) {
    await tab.goto("/billing?dialog=add-funds");
    const dialog = tab.getByRole("dialog", { name: "Add funds" });
    // The fake drops the connection twice for a charge of $13.13 with one key, the client's retry included.
    await dialog.getByLabel("Amount (USD)").fill("13.13");
    await dialog.getByRole("button", { name: "Add funds" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("The payment provider could not be reached. Please try again.");
    await expect(dialog.getByLabel("Amount (USD)")).toHaveValue("13.13");
    // A new key would meet the failure again (and make two charges once Stripe answers); the same key is one.
    await dialog.getByRole("button", { name: "Add funds" }).click();
    await expect(tab.getByTestId("balance")).toHaveText(balance);
  }
  await expect(noJs.getByRole("row").filter({ hasText: "Added funds" })).toHaveCount(2);
  await noJsContext.close();
});

test("configure auto-payment: both validation texts, then saved and Enabled", async ({ page }) => {
  await signInWithOrganization(page);
  await addCardWithRequests(page);
  await page.goto("/billing");
  await page.getByRole("link", { name: "Configure" }).click();
  const dialog = page.getByRole("dialog", { name: "Auto-payment" });
  await expect(dialog.getByLabel("Threshold amount (USD)")).toHaveValue("20");
  await expect(dialog.getByLabel("Recharge amount (USD)")).toHaveValue("10");
  // A new organization's $0.00 is under any threshold: saving would charge the card at once, and says so as it is typed.
  // Said politely, from a region that stays: an alert would interrupt each typed character (decision 0138).
  const chargeNow = dialog.getByRole("status").filter({ hasText: "is below the threshold" });
  await expect(chargeNow).toHaveCount(0);
  await dialog.getByLabel("Enable auto-payment").check();
  await expect(chargeNow).toHaveText("Your balance ($0.00) is below the threshold: saving charges your card $10.00 now.");
  await dialog.getByLabel("Recharge amount (USD)").fill("25");
  await expect(chargeNow).toHaveText("Your balance ($0.00) is below the threshold: saving charges your card $25.00 now.");
  await dialog.getByLabel("Threshold amount (USD)").fill("-1");
  await dialog.getByLabel("Recharge amount (USD)").fill("5");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("Threshold amount must be non-negative")).toBeVisible();
  await expect(dialog.getByText("Recharge amount must be at least $10")).toBeVisible();
  await dialog.getByLabel("Threshold amount (USD)").fill("15");
  await dialog.getByLabel("Recharge amount (USD)").fill("30");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Auto-payment settings updated successfully.")).toBeVisible();
  await expect(page.getByText("Auto-reload:")).toContainText("Enabled");
  await expect(page.getByText("Adds $30.00 when the balance falls below $15.00.")).toBeVisible();
});

test("saving auto-payment with a card that declines says the recharge did not go through", async ({ page }) => {
  await signInWithOrganization(page);
  await addCardWithRequests(page, "4000000000000341");
  await page.goto("/billing?dialog=auto-payment");
  const dialog = page.getByRole("dialog", { name: "Auto-payment" });
  await dialog.getByLabel("Enable auto-payment").check();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Auto-payment settings updated successfully.")).toBeVisible();
  // Before, the page said "Enabled" at $0.00 and nothing more until the daily limit paused recharges.
  await expect(page.getByRole("alert").filter({ hasText: "The automatic recharge of $10.00 did not go through" })).toBeVisible();
  await expect(page.getByTestId("balance")).toHaveText("$0.00");
});

test("remove the payment method after confirming", async ({ page }) => {
  await signInWithOrganization(page);
  await addCardWithRequests(page);
  await page.goto("/billing");
  await expect(page.getByText(BANNER)).toHaveCount(0);
  // The visible words stay "Update" and "Remove"; their names go on with the card they act on.
  const update = page.getByRole("link", { name: "Update Visa card ending 4242", exact: true });
  const remove = page.getByRole("button", { name: "Remove Visa card ending 4242", exact: true });
  expect(await visibleText(update)).toBe("Update");
  expect(await visibleText(remove)).toBe("Remove");
  await remove.click();
  const question = page.getByRole("alertdialog", { name: "Are you sure you want to remove your payment method?" });
  await expect(question).toBeVisible();
  await question.getByRole("button", { name: "Yes, remove" }).click();
  await expect(page.getByText("Payment method removed successfully.")).toBeVisible();
  await expect(page.getByText(BANNER)).toBeVisible();
  await expect(page.getByRole("button", { name: "Add funds" })).toBeDisabled();
});

test("invoice mode: 'Since Last Invoice' with the absolute amount, no add funds and no auto-reload", async ({ page }) => {
  const { orgId } = await signInWithOrganization(page);
  setBillingMode(orgId, "invoice");
  await page.goto("/billing");
  await expect(page.getByRole("heading", { name: "Since Last Invoice" })).toBeVisible();
  await expect(page.getByTestId("balance")).toHaveText("$0.00");
  await expect(page.getByRole("button", { name: "Add funds" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Add funds" })).toHaveCount(0);
  await expect(page.getByText("Auto-reload:")).toHaveCount(0);
  await expect(page.getByText("Configure")).toHaveCount(0);
});

test("invoice mode with credit left: nothing since the last invoice, and the credit said as such", async ({ page }) => {
  const { orgId } = await signInWithOrganization(page);
  grantCreditWithCli(orgId, "12.34", "Prepaid before invoicing");
  setBillingMode(orgId, "invoice");
  await page.goto("/billing");
  await expect(page.getByRole("heading", { name: "Since Last Invoice" })).toBeVisible();
  await expect(page.getByTestId("balance")).toHaveText("$0.00");
  await expect(page.getByTestId("invoice-credit")).toHaveText("Credit: $12.34. Usage is taken from it before anything is owed.");
});

test("add funds with JavaScript disabled", async ({ page, browser, baseURL }) => {
  await signInWithOrganization(page);
  await addCardWithRequests(page);
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL, storageState: await page.context().storageState() });
  await context.addCookies([{ name: "CH-time-zone", value: "UTC", url: baseURL! }]);
  const noJs = await context.newPage();
  await noJs.goto("/billing");
  await noJs.getByRole("link", { name: "Add funds" }).click();
  const dialog = noJs.getByRole("dialog", { name: "Add funds" });
  await dialog.getByRole("link", { name: "$50" }).click();
  await expect(dialog.getByLabel("Amount (USD)")).toHaveValue("50");
  await dialog.getByRole("button", { name: "Add funds" }).click();
  await expect(noJs.getByText("Adding funds successful! Balance will update shortly.")).toBeVisible();
  await expect(noJs.getByTestId("balance")).toHaveText("$50.00");
  await expect(noJs.getByRole("row").filter({ hasText: "Added funds" })).toContainText("+$50.00");
  await context.close();
});

test("the return from the card form's redirect: a 3-D Secure card succeeds, a failed status shows the error", async ({ page }) => {
  await useFakeStripe(page);
  await signInWithOrganization(page);
  await addCardThroughDialog(page, "4000002500003155");
  await expect(page.getByText("Payment method added successfully.")).toBeVisible();
  await expect(page).toHaveURL(/\/billing$/);
  await expect(page.getByText("Visa •••• 3155")).toBeVisible();

  await page.goto("/billing?setup_intent=seti_x&setup_intent_client_secret=seti_x_secret_y&redirect_status=failed");
  await expect(page.getByText("Failed to add payment method. Please try again.")).toBeVisible();
  await expect(page).toHaveURL(/\/billing$/);
});

test("a declined card in the form shows the provider's message", async ({ page }) => {
  await useFakeStripe(page);
  await signInWithOrganization(page);
  await addCardThroughDialog(page, "4000000000000002");
  await expect(page.getByRole("dialog").getByRole("alert")).toHaveText("Your card was declined.");
});

test("Cancel in the card form closes the dialog in place, and focus goes back to the button that opened it", async ({ page }) => {
  await useFakeStripe(page);
  await signInWithOrganization(page);
  await page.goto("/billing");
  // A mark on this document: a reload (the plain link Cancel was) would drop it.
  await page.evaluate(() => ((window as unknown as { stillThisDocument: boolean }).stillThisDocument = true));
  const opener = page.getByRole("link", { name: "Set up payment method" });
  await opener.click();
  const dialog = page.getByRole("dialog", { name: "Set up payment method" });
  await expect(dialog.getByLabel("Card number")).toBeVisible();
  await dialog.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page).toHaveURL(/\/billing$/);
  await expect(opener).toBeFocused();
  expect(await page.evaluate(() => (window as unknown as { stillThisDocument?: boolean }).stillThisDocument)).toBe(true);
});

test("Escape in the card field (Stripe's iframe, whose keys the page never sees) closes the dialog, and focus goes back to its opener", async ({ page }) => {
  await useFakeStripe(page);
  await signInWithOrganization(page);
  await page.goto("/billing");
  const opener = page.getByRole("link", { name: "Set up payment method" });
  await opener.click();
  const card = page.getByRole("dialog", { name: "Set up payment method" }).getByLabel("Card number");
  await card.fill("4242");
  await card.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page).toHaveURL(/\/billing$/);
  await expect(opener).toBeFocused();
});

test("a card saved and the dialog left within 2 s: no reload takes the person back to /billing from another page", async ({ page }) => {
  await useFakeStripe(page);
  await signInWithOrganization(page);
  await addCardThroughDialog(page);
  await expect(page.getByText("Payment method added successfully.")).toBeVisible();
  // A mark on this document: the reload would drop it.
  await page.evaluate(() => ((window as unknown as { stillThisDocument: boolean }).stillThisDocument = true));
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  // Closing the dialog loads the page's data again: the card is there without the reload.
  await expect(page.getByText("Visa •••• 4242")).toBeVisible();
  await expect(page.getByText(BANNER)).toHaveCount(0);
  await page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "Team" }).click();
  await expect(page).toHaveURL(/\/team$/);
  await page.getByLabel("Maximum uses").fill("7");
  // Past the 2 s the card form's reload waited.
  await page.waitForTimeout(3000);
  await expect(page).toHaveURL(/\/team$/);
  await expect(page.getByLabel("Maximum uses")).toHaveValue("7");
  expect(await page.evaluate(() => (window as unknown as { stillThisDocument?: boolean }).stillThisDocument)).toBe(true);
});

test("Stripe.js that cannot load shows the initialization error", async ({ page }) => {
  await blockStripeJs(page);
  await signInWithOrganization(page);
  await page.goto("/billing?dialog=payment-method");
  await expect(page.getByRole("dialog").getByText("Failed to initialize billing. Please try again later.")).toBeVisible();
});

test("a refused ledger export's reason goes away once a later export downloads, and stays away on reload", async ({ page }) => {
  await signInWithOrganization(page, "ExportAgain");
  await page.goto("/billing");
  const exportForm = page.getByRole("region", { name: "Export", exact: true });
  await exportForm.getByLabel("From").fill("2026-12-01");
  await exportForm.getByLabel("To").fill("2026-11-01");
  await exportForm.getByRole("button", { name: "Export ledger (CSV)" }).click();
  await expect(exportForm.getByRole("alert")).toHaveText("To is before From: no day is in this range.");
  await hydrated(page);

  await exportForm.getByLabel("To").fill("2026-12-31");
  const download = page.waitForEvent("download");
  await exportForm.getByRole("button", { name: "Export ledger (CSV)" }).click();
  expect((await download).suggestedFilename()).toBe("ledger-from-2026-12-01-to-2026-12-31.csv");
  await expect(exportForm.getByRole("alert")).toHaveCount(0);
  await expect(page).toHaveURL(/\/billing$/);
  await expect(exportForm.getByLabel("From")).toHaveValue("2026-12-01");
  await expect(exportForm.getByLabel("To")).toHaveValue("2026-12-31");
  await page.reload();
  await expect(page.getByRole("heading", { name: "Export", exact: true })).toBeVisible();
  await expect(exportForm.getByRole("alert")).toHaveCount(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a refused ledger export's reason goes once a later export downloads, and a reload does not bring it back", async ({ page }) => {
    await signInWithOrganization(page, "ExportNoJs");
    await page.goto("/billing");
    const exportForm = page.getByRole("region", { name: "Export", exact: true });
    await exportForm.getByLabel("From").fill("2026-11-30");
    await exportForm.getByLabel("To").fill("2026-11-01");
    await exportForm.getByRole("button", { name: "Export ledger (CSV)" }).click();
    const alert = exportForm.getByRole("alert");
    await expect(alert).toHaveText("To is before From: no day is in this range.");
    await expect(alert).toBeFocused();
    await expect(alert).toBeInViewport();
    await expect(exportForm.getByLabel("From")).toHaveValue("2026-11-30");
    await expect(exportForm.getByLabel("To")).toHaveValue("2026-11-01");

    await exportForm.getByLabel("To").fill("2026-12-31");
    const download = page.waitForEvent("download");
    await exportForm.getByRole("button", { name: "Export ledger (CSV)" }).click();
    expect((await download).suggestedFilename()).toBe("ledger-from-2026-11-30-to-2026-12-31.csv");
    await expect(alert).toBeHidden();
    // The reason travelled once, in a flash: the URL carries nothing that could bring it back.
    await expect(page).toHaveURL(/\/billing$/);
    await page.reload();
    await expect(page.getByRole("heading", { name: "Export", exact: true })).toBeVisible();
    await expect(exportForm.getByRole("alert")).toHaveCount(0);
  });
});

test.describe("money in and out", () => {
  test("a credit granted from the CLI shows in the balance and the ledger", async ({ page }) => {
    const { orgId } = await signInWithOrganization(page, "CliCredit");
    expect(grantCreditWithCli(orgId, "7.25", "Support goodwill")).toContain("Credited $7.25");
    await page.goto("/billing");
    await expect(page.getByTestId("balance")).toHaveText("$7.25");
    await expect(page.getByRole("row").filter({ hasText: "Credit: Support goodwill" })).toContainText("+$7.25");
  });

  test("a sub-cent debit shows -$0.00 with its exact amount; a refused recharge and the daily limit show", async ({ page }) => {
    const { orgId } = await signInWithOrganization(page, "SubCent");
    await addCardWithRequests(page);
    // Above the threshold before auto-reload is turned on: saving it under the threshold would start a
    // recharge (audit O, O1), whose credit could land after the pause below and clear it.
    await writeDatabase([{ sql: "update billing_accounts set balance_micros = 15000000 where org_id = ?", params: [orgId] }]);
    const saved = await page.request.post("/api/v1/billing/auto-payment-config", { data: { enabled: true, thresholdAmount: 10, rechargeAmount: 20 } });
    expect(saved.ok()).toBe(true);
    await writeDatabase([
      {
        sql: "insert into ledger_entries (org_id, created_at, description, model, rate_card_id, change_micros, payment_intent_id) values (?, ?, 'Chat usage', 'tiny', 'rc-tiny', -123, null)",
        params: [orgId, Date.now()],
      },
      {
        sql: "update billing_accounts set balance_micros = balance_micros - 123, recharge_refused_at = ?, recharge_refused_reason = '3 recharges today, the daily limit' where org_id = ?",
        params: [Date.now(), orgId],
      },
    ]);
    await page.goto("/billing");
    const change = page.getByRole("row").filter({ hasText: "Chat usage" }).getByTitle("-$0.000123");
    await expect(change).toBeVisible();
    await expect(change).toContainText("-$0.00");
    await expect(page.getByRole("alert").filter({ hasText: "Automatic recharge paused: 3 recharges today, the daily limit." })).toBeVisible();
    await expect(page.getByText("At most 3 automatic recharges a day.")).toBeVisible();

    // The next successful charge clears it.
    await page.goto("/billing?dialog=add-funds");
    await page.getByRole("dialog", { name: "Add funds" }).getByRole("button", { name: "Add funds" }).click();
    await expect(page.getByText("Adding funds successful! Balance will update shortly.")).toBeVisible();
    await expect(page.getByText(/Automatic recharge paused/)).toHaveCount(0);
  });
});
