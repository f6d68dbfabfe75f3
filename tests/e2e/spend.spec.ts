import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { request } from "@playwright/test";
import { OPERATOR, signInWithOrganization, signInWithRequests } from "./support/auth";
import { startFakeUpstream } from "../fakes/openai-upstream";
import type { FakeUpstream } from "../fakes/openai-upstream";
import { expect, hydrated, test } from "./support/test";

/** Spend control (issue 11): token budgets and allow-lists on /tokens, the monthly cap on /billing, the chat's 402. */

const tokenRows = (page: Page) => page.getByRole("table", { name: "API tokens" }).locator("tbody tr");

let fake: FakeUpstream;
let priced: string;

test.beforeAll(async () => {
  fake = await startFakeUpstream();
  const operator = await request.newContext({ baseURL: process.env.E2E_BASE_URL });
  await signInWithRequests(operator, OPERATOR);
  priced = `e2e-priced-${randomUUID().slice(0, 6)}`;
  const response = await operator.put(`/api/v1/models/${priced}`, {
    data: {
      displayName: `Priced ${priced.slice(-6)}`,
      provider: "fake",
      contextSize: 32768,
      baseUrl: fake.url,
      upstreamModel: "echo",
      rateCard: { id: "rc-e2e-priced", inputPerMillion: 1, outputPerMillion: 2 },
    },
  });
  expect(response.ok()).toBe(true);
  await operator.dispose();
});

test.afterAll(async () => {
  const operator = await request.newContext({ baseURL: process.env.E2E_BASE_URL });
  await signInWithRequests(operator, OPERATOR);
  await operator.delete(`/api/v1/models/${priced}`);
  await operator.dispose();
  await fake.close();
});

async function createWithSettings(page: Page) {
  await page.goto("/tokens");
  const form = page.getByRole("region", { name: "Create API token" });
  // A token with no scope can call nothing: every scope starts checked.
  for (const scope of ["chat", "models:read", "images", "audio"]) await expect(form.getByLabel(scope, { exact: true })).toBeChecked();
  await form.getByLabel("Budget (USD)").fill("5.505");
  await form.getByLabel("Budget period").selectOption("month");
  await form.getByLabel(priced, { exact: true }).check();
  await form.getByLabel("Requests per minute").fill("60");
  await form.getByRole("button", { name: "Create token" }).click();
  // Three decimals are refused, next to the field, and what was typed stays.
  await expect(form.getByText("The budget may have at most 2 decimals")).toBeVisible();
  await expect(form.getByLabel("Requests per minute")).toHaveValue("60");
  await form.getByLabel("Budget (USD)").fill("5.50");
  await form.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByRole("region", { name: "Token created" })).toBeVisible();
  const row = tokenRows(page).nth(1);
  await expect(row).toContainText("$0.00 / $5.50 this month");
  await expect(row).toContainText(priced);
  await expect(row).toContainText("60 / min");
  return row;
}

async function editSettings(page: Page, row: ReturnType<typeof tokenRows>) {
  const publicId = (await row.locator("code").first().textContent())!.trim();
  await row.getByRole("link", { name: `Settings of ${publicId}` }).click();
  const settings = page.getByRole("region", { name: `Settings of ${publicId}` });
  await expect(settings.getByLabel("Budget (USD)")).toHaveValue("5.5");
  await expect(settings.getByLabel(priced, { exact: true })).toBeChecked();
  await settings.getByLabel("Budget (USD)").fill("2");
  await settings.getByLabel("Budget period").selectOption("total");
  await settings.getByLabel(priced, { exact: true }).uncheck();
  await settings.getByLabel("Requests per minute").fill("");
  await settings.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Settings of ${publicId} saved.` })).toBeVisible();
  const updated = page.locator(`tr[data-token="${publicId}"]`);
  await expect(updated).toContainText("$0.00 / $2.00");
  await expect(updated).not.toContainText("this month");
  await expect(updated).toContainText("All models");
  await expect(page.getByRole("region", { name: `Settings of ${publicId}` })).toHaveCount(0);
}

test("an admin sets a token's budget, allow-list and rate at creation and changes them later", async ({ page }) => {
  await signInWithOrganization(page);
  const row = await createWithSettings(page);
  await editSettings(page, row);
});

test("the chat shows the platform's 402 when the balance cannot cover a priced model", async ({ page }) => {
  await signInWithOrganization(page);
  await page.goto(`/chat?model=${priced}`);
  await expect(page.getByRole("button", { name: new RegExp(`^Model Priced ${priced.slice(-6)}`) })).toBeVisible();
  await page.getByRole("textbox", { name: "Message" }).fill("Hello");
  await page.getByRole("textbox", { name: "Message" }).press("Enter");
  await expect(page.getByRole("alert")).toContainText(/Insufficient balance: this request may cost up to \$0\.\d+, \$0\.00 is available/);
  expect(fake.requests.some((r) => r.body.messages && JSON.stringify(r.body.messages).includes("Hello") && r.model === "echo")).toBe(false);
});

test("an admin sets and removes the monthly spend cap on /billing", async ({ page }) => {
  await signInWithOrganization(page);
  await page.goto("/billing");
  const cap = page.getByRole("region", { name: "Monthly spend cap" });
  await expect(cap).toContainText("No cap. Spent this month (UTC): $0.00.");
  await expect(cap.getByText(/^This month began \d{2} \w{3} \d{4}, 00:00 UTC\.$/)).toBeVisible();
  await cap.getByLabel("Monthly spend cap (USD)").fill("abc");
  await cap.getByRole("button", { name: "Save cap" }).click();
  await expect(cap.getByText("The monthly cap must be a number of dollars")).toBeVisible();
  await hydrated(page);
  await cap.getByLabel("Monthly spend cap (USD)").fill("250");
  // From the keyboard: the button, disabled while the save runs, has the focus back after it.
  await cap.getByRole("button", { name: "Save cap" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Monthly spend cap set to $250.00." })).toBeVisible();
  await expect(cap).toContainText("Spent this month (UTC): $0.00 of $250.00.");
  await expect(cap.getByRole("button", { name: "Save cap" })).toBeFocused();
  await cap.getByLabel("Monthly spend cap (USD)").fill("");
  await cap.getByRole("button", { name: "Save cap" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Monthly spend cap removed." })).toBeVisible();
  await expect(cap).toContainText("No cap.");
});

test.describe("with JavaScript disabled", () => {
  test.use({ javaScriptEnabled: false });

  test("an admin sets a token's budget and allow-list, and edits them through the settings link", async ({ page }) => {
    await signInWithOrganization(page);
    const row = await createWithSettings(page);
    await editSettings(page, row);
  });

  test("an admin sets the monthly spend cap, refused amounts coming back with the input kept", async ({ page }) => {
    await signInWithOrganization(page);
    await page.goto("/billing");
    const cap = page.getByRole("region", { name: "Monthly spend cap" });
    await cap.getByLabel("Monthly spend cap (USD)").fill("12.345");
    await cap.getByRole("button", { name: "Save cap" }).click();
    await expect(cap.getByText("The monthly cap may have at most 2 decimals")).toBeVisible();
    await expect(cap.getByLabel("Monthly spend cap (USD)")).toHaveValue("12.345");
    await cap.getByLabel("Monthly spend cap (USD)").fill("12.34");
    await cap.getByRole("button", { name: "Save cap" }).click();
    await expect(page.getByRole("region", { name: "Monthly spend cap" })).toContainText("Spent this month (UTC): $0.00 of $12.34.");
  });

  test("on a phone a refused cap comes back in view, the field and its error focused (decision 0091)", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signInWithOrganization(page);
    await page.goto("/billing");
    const cap = page.getByRole("region", { name: "Monthly spend cap" });
    await cap.getByLabel("Monthly spend cap (USD)").fill("abc");
    await cap.getByRole("button", { name: "Save cap" }).click();
    const error = "The monthly cap must be a number of dollars";
    await expect(page.getByText(error)).toBeInViewport();
    await expect(page.locator(":focus")).toContainText(error);
    await page.keyboard.press("Tab");
    await expect(cap.getByLabel("Monthly spend cap (USD)")).toBeFocused();
  });
});
