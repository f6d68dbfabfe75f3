import type { Page } from "@playwright/test";
import { OPERATOR, signInWithOrganization, signInWithRequests } from "./support/auth";
import { operatorPage, uniqueModelName } from "./support/system";
import { expect, test, visibleText } from "./support/test";

const modelRow = (page: Page, name: string) => page.getByRole("table", { name: "Models" }).getByRole("row").filter({ hasText: name });

test.describe("the model editor", () => {
  test("the operator adds a model, sees it on /models, edits it and deletes it", async ({ page }) => {
    test.slow(); // one long flow across three pages
    const name = uniqueModelName();
    await signInWithRequests(page.request, OPERATOR);
    await page.goto("/model-editor");
    await expect(page.getByRole("heading", { name: "Model Editor" })).toBeVisible();
    await expect(modelRow(page, "builtin")).toContainText("Built-in development model");

    const form = page.getByRole("form", { name: "Add a model" });
    await form.getByLabel("Name", { exact: true }).fill(name);
    await form.getByLabel("Display name").fill(`Editor ${name}`);
    await form.getByLabel("Provider").fill("vllm");
    await form.getByLabel("Context size (tokens)").fill("65536");
    await form.getByLabel("Base URL").fill("http://127.0.0.1:9/v1");
    await form.getByLabel("Upstream model").fill("Qwen/Qwen3-8B");
    await form.getByLabel("API key", { exact: true }).fill("sk-e2e-upstream-secret");
    await form.getByLabel("Rate card id").fill(`rc-${name}`);
    await form.getByLabel("Input price").fill("0.5");
    await form.getByLabel("Output price").fill("1.5");
    await form.getByRole("button", { name: "Add model" }).click();

    await expect(page.getByText(`Model ${name} added.`)).toBeVisible();
    const row = modelRow(page, name);
    await expect(row).toContainText(`Editor ${name}`);
    await expect(row).toContainText("65,536");
    await expect(row).toContainText("Qwen/Qwen3-8B");
    await expect(row).toContainText("in $0.50 · out $1.50");
    await expect(row.getByText("Set", { exact: true })).toBeVisible();
    expect(await page.content()).not.toContain("sk-e2e-upstream-secret");

    await page.goto("/models");
    await expect(page.getByRole("row").filter({ hasText: name })).toContainText(`Editor ${name}`);

    await page.goto("/model-editor");
    await modelRow(page, name)
      .getByRole("link", { name: `Edit ${name}` })
      .click();
    const edit = page.getByRole("form", { name: `Edit ${name}` });
    await expect(edit.getByLabel("Name", { exact: true })).toHaveValue(name);
    await expect(edit.getByLabel("Name", { exact: true })).toHaveAttribute("readonly", "");
    await expect(edit.getByLabel("API key", { exact: true })).toHaveValue("");
    await expect(edit.getByLabel("API key", { exact: true })).toHaveAttribute("placeholder", "Leave blank to keep the current key");
    await edit.getByLabel("Display name").fill(`Renamed ${name}`);
    await edit.getByLabel("Status override").selectOption("maintenance");
    await edit.getByRole("button", { name: "Save changes" }).click();

    await expect(page.getByText(`Model ${name} saved.`)).toBeVisible();
    await expect(page.getByRole("form", { name: "Add a model" })).toBeVisible();
    await expect(modelRow(page, name)).toContainText(`Renamed ${name}`);
    await expect(modelRow(page, name)).toContainText("maintenance");
    await expect(modelRow(page, name).getByText("Set", { exact: true })).toBeVisible();

    await page.goto("/models");
    await expect(page.getByRole("row").filter({ hasText: name })).toContainText(`Renamed ${name}`);

    await page.goto("/model-editor");
    // The row's button names its model (audit L): "Delete" alone would be one of many.
    await modelRow(page, name)
      .getByRole("button", { name: `Delete ${name}`, exact: true })
      .click();
    const question = page.getByRole("alertdialog", { name: `Delete the model ${name}? Chats and API calls to it stop at once.` });
    await question.getByRole("button", { name: "Yes, delete" }).click();
    await expect(page.getByText(`Model ${name} deleted.`)).toBeVisible();
    await expect(modelRow(page, name)).toHaveCount(0);
    await page.goto("/models");
    await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the form names bad fields, keeps what was typed, then adds the model", async ({ page }) => {
      test.slow(); // two full page loads per step without client navigation
      const name = uniqueModelName("e2e-nojs");
      await signInWithRequests(page.request, OPERATOR);
      await page.goto("/model-editor");
      const form = page.getByRole("form", { name: "Add a model" });
      await form.getByLabel("Name", { exact: true }).fill(name);
      await form.getByLabel("Display name").fill(`No JS ${name}`);
      await form.getByLabel("Provider").fill("vllm");
      await form.getByLabel("Input price").fill("abc");
      await form.getByRole("button", { name: "Add model" }).click();

      await expect(page.getByText("Check the highlighted fields.")).toBeVisible();
      const again = page.getByRole("form", { name: "Add a model" });
      await expect(again.getByText("An upstream model needs a base URL")).toBeVisible();
      await expect(again.getByText("Name the rate card, or leave all three prices blank")).toBeVisible();
      await expect(again.getByText("Enter a price in dollars, such as 0.50")).toBeVisible();
      await expect(again.getByLabel("Display name")).toHaveValue(`No JS ${name}`);
      await expect(again.getByLabel("Input price")).toHaveValue("abc");

      await again.getByLabel("Provider").fill("builtin");
      await again.getByLabel("Input price").fill("");
      await again.getByRole("button", { name: "Add model" }).click();
      await expect(page.getByText(`Model ${name} added.`)).toBeVisible();
      await expect(modelRow(page, name)).toContainText(`No JS ${name}`);

      await modelRow(page, name).getByRole("button", { name: "Delete" }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Yes, delete" }).click();
      await expect(page.getByText(`Model ${name} deleted.`)).toBeVisible();
    });
  });
});

test.describe("the organization editor", () => {
  test("the operator sets an organization to invoice billing, and its admin sees 'Since Last Invoice'", async ({ page, browser, baseURL }) => {
    test.slow(); // two people, two browser contexts
    const { orgId, orgName } = await signInWithOrganization(page, "Invoiced");
    await page.goto("/billing");
    await expect(page.getByRole("heading", { name: "Current Balance" })).toBeVisible();

    const operator = await operatorPage(browser, baseURL!);
    await operator.goto("/system/orgs");
    const row = operator.getByRole("row", { name: orgName, exact: true });
    await expect(row.getByRole("cell").first()).toHaveText(String(orgId));
    await expect(row).toContainText("$0.00");
    await expect(row.getByLabel(`Payment mode of ${orgName}`)).toHaveValue("manual");
    await expect(row.getByRole("button", { name: "Save mode" })).toHaveCount(0);
    await row.getByLabel(`Payment mode of ${orgName}`).selectOption("invoice");
    await expect(operator.getByText(`${orgName} now uses Invoice billing.`)).toBeVisible();
    await operator.goto("/system/orgs");
    await expect(operator.getByRole("row", { name: orgName, exact: true }).getByLabel(`Payment mode of ${orgName}`)).toHaveValue("invoice");

    await page.goto("/billing");
    await expect(page.getByRole("heading", { name: "Since Last Invoice" })).toBeVisible();

    const renamed = `${orgName} Renamed`;
    // The row's buttons name the organization they act on; the visible words stay as they are.
    const rename = row.getByRole("button", { name: `Rename ${orgName}`, exact: true });
    expect(await visibleText(rename)).toBe("Rename");
    const grant = row.locator("summary");
    await expect(grant).toHaveAccessibleName(`Grant credit to ${orgName}`);
    expect(await visibleText(grant)).toBe("Grant credit");
    await row.getByLabel(`Name of organization ${orgId}`).fill(renamed);
    await rename.click();
    await expect(operator.getByText(`Organization ${orgId} is now called ${renamed}.`)).toBeVisible();
    await expect(operator.getByRole("row", { name: renamed, exact: true })).toHaveCount(1);
    await operator.context().close();
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the payment mode has a submit button, and a blank name is refused with the typed text kept", async ({ page, browser, baseURL }) => {
      const { orgId, orgName } = await signInWithOrganization(page, "NoJsOrg");
      const operator = await operatorPage(browser, baseURL!, { javaScriptEnabled: false });
      await operator.goto("/system/orgs");
      const row = operator.getByRole("row", { name: orgName, exact: true });
      await row.getByLabel(`Payment mode of ${orgName}`).selectOption("auto");
      await row.getByRole("button", { name: `Save mode of ${orgName}`, exact: true }).click();
      await expect(operator.getByText(`${orgName} now uses Auto-reload (prepaid) billing.`)).toBeVisible();
      await expect(operator.getByRole("row", { name: orgName, exact: true }).getByLabel(`Payment mode of ${orgName}`)).toHaveValue("auto");

      const again = operator.getByRole("row", { name: orgName, exact: true });
      await again.getByLabel(`Name of organization ${orgId}`).fill("   ");
      await again.getByRole("button", { name: "Rename" }).click();
      const refused = operator.getByRole("row", { name: orgName, exact: true });
      await expect(refused.getByText("Organization name is required")).toBeVisible();
      await expect(refused.getByLabel(`Name of organization ${orgId}`)).toHaveValue("   ");
      await operator.context().close();
    });
  });
});

test("a member of another organization is kept out of the system calls", async ({ page }) => {
  await signInWithOrganization(page, "Outsider");
  expect((await page.request.get("/api/v1/system/organizations")).status()).toBe(403);
  expect((await page.request.get("/api/v1/system/models")).status()).toBe(403);
  await page.goto("/system/orgs");
  await expect(page).toHaveURL(/\/team$/);
});

test.describe("granting credit", () => {
  test("the operator grants credit in the organization editor and the organization's balance rises", async ({ page, browser, baseURL }) => {
    test.slow(); // two people, two browser contexts
    const { orgName } = await signInWithOrganization(page, "Granted");
    const operator = await operatorPage(browser, baseURL!);
    await operator.goto("/system/orgs");
    const row = operator.getByRole("row", { name: orgName, exact: true });
    await expect(row).toContainText("$0.00");
    await row.locator("summary", { hasText: "Grant credit" }).click();
    const form = row.getByRole("form", { name: `Grant credit to ${orgName}` });
    // On a desktop screen the open form and the organization's name are both in view (the credit column is pinned).
    await form.getByRole("button", { name: "Grant", exact: true }).scrollIntoViewIfNeeded();
    await expect(form.getByRole("button", { name: "Grant", exact: true })).toBeInViewport({ ratio: 1 });
    await expect(row.locator("td").nth(1)).toBeInViewport({ ratio: 1 });
    await form.getByLabel("Amount (USD)").fill("12.5");
    await form.getByLabel("Reason").fill("Welcome trial");
    await form.getByRole("button", { name: "Grant", exact: true }).click();
    await expect(operator.getByText(`Granted $12.50 to ${orgName}: Credit: Welcome trial. Balance $12.50.`)).toBeVisible();
    await expect(operator.getByRole("row", { name: orgName, exact: true })).toContainText("$12.50");

    await page.goto("/billing");
    await expect(page.getByTestId("balance")).toHaveText("$12.50");
    await expect(page.getByRole("row").filter({ hasText: "Credit: Welcome trial" })).toContainText("+$12.50");
    await operator.context().close();
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("a blank reason is refused with the amount kept, then the credit is granted", async ({ page, browser, baseURL }) => {
      const { orgName } = await signInWithOrganization(page, "GrantedNoJs");
      const operator = await operatorPage(browser, baseURL!, { javaScriptEnabled: false });
      await operator.goto("/system/orgs");
      const row = operator.getByRole("row", { name: orgName, exact: true });
      await row.locator("summary", { hasText: "Grant credit" }).click();
      const form = row.getByRole("form", { name: `Grant credit to ${orgName}` });
      await form.getByLabel("Amount (USD)").fill("5");
      await form.getByLabel("Reason").fill("   ");
      await form.getByRole("button", { name: "Grant", exact: true }).click();

      const refused = operator.getByRole("row", { name: orgName, exact: true }).getByRole("form", { name: `Grant credit to ${orgName}` });
      await expect(refused.getByText("Enter a reason")).toBeVisible();
      await expect(refused.getByLabel("Amount (USD)")).toHaveValue("5");
      await refused.getByLabel("Reason").fill("Trial");
      await refused.getByRole("button", { name: "Grant", exact: true }).click();
      await expect(operator.getByText(`Granted $5.00 to ${orgName}: Credit: Trial. Balance $5.00.`)).toBeVisible();
      await expect(operator.getByRole("row", { name: orgName, exact: true })).toContainText("$5.00");
      await operator.context().close();
    });
  });
});
