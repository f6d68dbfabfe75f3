import type { APIRequestContext, Page } from "@playwright/test";
import { signInWithOrganization } from "./support/auth";
import { fakeModels } from "./support/chat";
import { operatorPage } from "./support/system";
import { expect, test } from "./support/test";

/** Issue 17: reliability figures from the platform's own traffic, in the console. */

/** One streamed chat request as the signed-in user of `request`, read to its end; its status. */
async function chat(request: APIRequestContext, model: string): Promise<number> {
  const response = await request.post("/api/v1/chat/completions", { data: { model, messages: [{ role: "user", content: "Say hello" }], stream: true } });
  await response.body().catch(() => null);
  return response.status();
}

/** The operator's PUT of a fake model (the registry replaces the record: every field goes along). */
async function configure(operator: Page, name: string, baseUrl: string, upstreamModel: string, extra: Record<string, unknown>) {
  const response = await operator.request.put(`/api/v1/models/${name}`, {
    data: { displayName: `Fake ${upstreamModel} ${name.slice(-6)}`, provider: "fake", contextSize: 32768, baseUrl, upstreamModel, ...extra },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

const modelsRow = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByRole("link", { name: new RegExp(`^${name}:`) }) });

test("/models shows each model's figures for the organization's own requests, and the platform's where published", async ({ page, browser, baseURL }) => {
  const { fake, names, dispose } = await fakeModels(["echo", "warming"]);
  const operator = await operatorPage(browser, baseURL!);
  try {
    await signInWithOrganization(page);
    expect(await chat(page.request, names.echo)).toBe(200);
    expect(await chat(page.request, names.echo)).toBe(200);
    expect(await chat(page.request, names.warming)).toBe(503);

    await page.goto("/models");
    for (const header of ["Uptime (24 h)", "Last hour"]) {
      await expect(page.getByRole("columnheader", { name: header })).toBeVisible();
    }
    const echo = modelsRow(page, names.echo);
    await expect(echo.getByRole("cell").nth(6)).toHaveText(/^TTFT \d+ msspeed [\d.]+ tok\/serrors 0%$/);
    await expect(echo).not.toContainText("whole platform");
    const warming = modelsRow(page, names.warming);
    await expect(warming.getByRole("cell").nth(6)).toContainText("TTFT —no data");
    await expect(warming.getByRole("cell").nth(6)).toContainText("errors 100%");

    // Published by the operator: the whole platform's figure shows under the organization's own.
    await configure(operator, names.echo, fake.url, "echo", { publishMetrics: true });
    await page.reload();
    await expect(modelsRow(page, names.echo).getByRole("cell").nth(6)).toContainText(/whole platform: \d+ ms, [\d.]+ tok\/s, errors 0%/);
    await expect(modelsRow(page, names.warming)).not.toContainText("whole platform");
  } finally {
    await operator.context().close();
    await dispose();
  }
});

async function expectModelPage(page: Page, name: string, displayName: string) {
  await expect(page.getByRole("heading", { name: displayName, level: 2 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Last 7 days" })).toBeVisible();
  // The charts are images named and described in words.
  await expect(page.getByRole("img", { name: /^Status from/ })).toBeVisible();
  await expect(page.getByRole("img", { name: /Hourly p50 time to first token of requests from your organization/ })).toBeVisible();
  await expect(page.getByRole("img", { name: /Hourly error rate/ })).toHaveAccessibleDescription(/1 hour with requests from your organization\. No errors\./);
  // The table fallback: the same hour, in words and numbers.
  const hours = page.getByRole("region", { name: "Hourly figures" }).getByRole("table");
  await expect(hours.getByRole("row")).toHaveCount(2);
  const row = hours.getByRole("row").nth(1);
  await expect(row.getByRole("cell").nth(1)).toHaveText("1");
  await expect(row.getByRole("cell").nth(2)).toHaveText(/^\d+ ms$/);
  await expect(row.getByRole("cell").nth(4)).toHaveText("0%");
  await expect(page.getByRole("region", { name: "Status changes" }).getByRole("row").filter({ hasText: "online" })).not.toHaveCount(0);
  await expect(page.getByRole("link", { name: "Chat with this model" })).toHaveAttribute("href", `/chat?model=${name}`);
}

test("the model page shows the last 7 days as charts and tables, with and without JavaScript", async ({ page, browser, baseURL }) => {
  const { names, dispose } = await fakeModels(["echo"]);
  const displayName = `Fake echo ${names.echo.slice(-6)}`;
  try {
    await signInWithOrganization(page);
    expect(await chat(page.request, names.echo)).toBe(200);
    await page.goto("/models");
    await page.getByRole("link", { name: `${names.echo}: reliability over 7 days` }).click();
    await expect(page).toHaveURL(new RegExp(`/models/${names.echo}$`));
    await expectModelPage(page, names.echo, displayName);

    const noScript = await browser.newContext({ baseURL, javaScriptEnabled: false });
    try {
      await noScript.addCookies([{ name: "CH-time-zone", value: "UTC", url: baseURL! }]);
      const plain = await noScript.newPage();
      await signInWithOrganization(plain);
      expect(await chat(plain.request, names.echo)).toBe(200);
      await plain.goto(`/models/${names.echo}`);
      await expectModelPage(plain, names.echo, displayName);
      // An unknown model is a 404, not someone else's page.
      const missing = await plain.goto("/models/no-such-model-here");
      expect(missing?.status()).toBe(404);
      await expect(plain.getByText("Page not found")).toBeVisible();
    } finally {
      await noScript.close();
    }
  } finally {
    await dispose();
  }
});

test("the chat's model selector shows the status dot and the last hour's p50 time to first token", async ({ page }) => {
  const { names, dispose } = await fakeModels(["echo", "warming"]);
  try {
    await signInWithOrganization(page);
    expect(await chat(page.request, names.echo)).toBe(200);
    await page.goto(`/chat?model=${names.echo}`);
    const selector = page.getByRole("button", { name: /^Model / });
    await expect(selector).toContainText(/TTFT \d+ ms/);
    await selector.click();
    const echo = page.getByRole("option", { name: new RegExp(`Fake echo ${names.echo.slice(-6)}`) });
    await expect(echo.getByText("Online", { exact: true })).toBeVisible();
    await expect(echo).toContainText(/TTFT \d+ ms/);
    // No requests in the last hour: said in words, not a number.
    await expect(page.getByRole("option", { name: new RegExp(`Fake warming ${names.warming.slice(-6)}`) })).toContainText("TTFT —no data");
  } finally {
    await dispose();
  }
});

test("the operator sees every organization's figures and an alert banner when a model passes its threshold", async ({ page, browser, baseURL }) => {
  const { fake, names, dispose } = await fakeModels(["warming", "echo"]);
  const operator = await operatorPage(browser, baseURL!);
  try {
    await configure(operator, names.warming, fake.url, "warming", { alertErrorRatePct: 10 });
    await configure(operator, names.echo, fake.url, "echo", { alertErrorRatePct: 10, alertTtftMs: 5000 });
    await signInWithOrganization(page);
    expect(await chat(page.request, names.warming)).toBe(503);
    expect(await chat(page.request, names.warming)).toBe(503);
    expect(await chat(page.request, names.echo)).toBe(200);

    await operator.setViewportSize({ width: 1280, height: 900 });
    await operator.goto("/model-editor");
    const banner = operator.getByRole("alert").filter({ hasText: "threshold" });
    await expect(banner).toContainText(`${names.warming}: error rate 100% over the last 15 minutes, above its 10% threshold.`);
    await expect(banner).not.toContainText(names.echo);
    const row = operator.getByRole("table", { name: "Models" }).getByRole("row").filter({ hasText: names.warming });
    await expect(row).toContainText("2 requests");
    await expect(row).toContainText("Errors 100%");

    // Issue 14.5: at 1280 px the editor's table fits: nothing scrolls sideways, no Delete button is cut off.
    const width = await operator.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(1280);
    for (const button of await operator.getByRole("table", { name: "Models" }).getByRole("button", { name: "Delete" }).all()) {
      const box = await button.boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(1280);
    }

    // The thresholds are the editor's fields, and a save keeps them.
    await operator.goto(`/model-editor?model=${names.warming}`);
    const form = operator.getByRole("form", { name: `Edit ${names.warming}` });
    await expect(form.getByLabel("Alert above error rate (%)")).toHaveValue("10");
    await form.getByLabel("Alert above p50 time to first token (ms)").fill("abc");
    await form.getByRole("button", { name: "Save changes" }).click();
    await expect(form.getByText("Enter a whole number of milliseconds")).toBeVisible();
    await form.getByLabel("Alert above p50 time to first token (ms)").fill("2500");
    await form.getByLabel("Publish platform-wide figures").check();
    await form.getByRole("button", { name: "Save changes" }).click();
    await expect(operator.getByText(`Model ${names.warming} saved.`)).toBeVisible();
    await operator.goto(`/model-editor?model=${names.warming}`);
    await expect(form.getByLabel("Alert above error rate (%)")).toHaveValue("10");
    await expect(form.getByLabel("Alert above p50 time to first token (ms)")).toHaveValue("2500");
    await expect(form.getByLabel("Publish platform-wide figures")).toBeChecked();
  } finally {
    await operator.context().close();
    await dispose();
  }
});
