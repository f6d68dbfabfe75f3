import type { Page } from "@playwright/test";
import { startFakeUpstream } from "../fakes/openai-upstream";
import { signInWithOrganization } from "./support/auth";
import { fakeModels } from "./support/chat";
import { operatorPage, uniqueModelName } from "./support/system";
import { expect, test } from "./support/test";

/** The built-in model's row (other rows may name "builtin" as their provider). */
const builtinRow = (page: Page) => page.getByRole("row").filter({ has: page.getByRole("link", { name: "builtin: reliability over 7 days", exact: true }) });

test("the models table shows each model with its status, and opens the chat with it", async ({ page }) => {
  const { names, dispose } = await fakeModels(["echo"]);
  try {
    await signInWithOrganization(page);
    await page.goto("/models");
    const builtin = builtinRow(page);
    await expect(builtin).toContainText("Built-in development model");
    await expect(builtin).toContainText("8,192");
    // The status in a word beside its dot, not by colour alone, and read once (no tooltip text in it).
    await expect(builtin.getByText("Online", { exact: true })).toBeVisible();
    await expect(builtin.getByRole("cell").first()).toHaveAccessibleName("Online");
    const fake = page.getByRole("row", { name: new RegExp(names.echo) });
    await expect(fake).toContainText("32,768");
    await expect(fake.getByRole("cell").first()).toHaveAccessibleName("Online");
    await fake.getByRole("link", { name: /Chat with this model/ }).click();
    await expect(page).toHaveURL(new RegExp(`/chat\\?model=${names.echo}`));
    await expect(page.getByRole("button", { name: new RegExp(`^Model Fake echo`) })).toBeVisible();
  } finally {
    await dispose();
  }
});

test("a model's status shows its tooltip on hover", async ({ page }) => {
  await signInWithOrganization(page);
  await page.goto("/models");
  const status = builtinRow(page).getByText("Online", { exact: true });
  const tip = builtinRow(page).getByText("Model is online and accepting requests");
  const shown = () => tip.evaluate((el) => getComputedStyle(el).opacity);
  await expect.poll(shown).toBe("0");
  await status.hover();
  await expect.poll(shown).toBe("1");
});

test("starting and maintenance read apart: their words, a round and a square dot, and the pulse only where motion is welcome", async ({
  page,
  browser,
  baseURL,
}) => {
  const fake = await startFakeUpstream();
  fake.modelsStatus = 503; // a vLLM still loading: the probe says "starting"
  const operator = await operatorPage(browser, baseURL!);
  const starting = uniqueModelName("e2e-starting");
  const maintenance = uniqueModelName("e2e-maintenance");
  try {
    for (const [name, data] of [
      [starting, { provider: "fake", baseUrl: fake.url, upstreamModel: "echo" }],
      [maintenance, { provider: "fake", baseUrl: fake.url, upstreamModel: "echo", status: "maintenance" }],
    ] as const) {
      const saved = await operator.request.put(`/api/v1/models/${name}`, { data: { displayName: `Status ${name}`, contextSize: 8192, ...data } });
      expect(saved.ok()).toBe(true);
    }
    await signInWithOrganization(page);
    await page.goto("/models");
    const startingRow = page.getByRole("row", { name: new RegExp(starting) });
    const maintenanceRow = page.getByRole("row", { name: new RegExp(maintenance) });
    await expect(startingRow.getByRole("cell").first()).toHaveAccessibleName("Starting");
    await expect(maintenanceRow.getByRole("cell").first()).toHaveAccessibleName("Maintenance");
    const dot = (row: typeof startingRow) => row.getByTestId("status-dot");
    const look = (row: typeof startingRow) =>
      dot(row).evaluate((el) => {
        const style = getComputedStyle(el);
        return { colour: style.backgroundColor, radius: style.borderRadius, animation: style.animationName };
      });
    const [startingLook, maintenanceLook] = [await look(startingRow), await look(maintenanceRow)];
    expect(startingLook.colour === maintenanceLook.colour && startingLook.radius === maintenanceLook.radius).toBe(false);
    expect(startingLook.animation).toBe("pulse");
    await page.emulateMedia({ reducedMotion: "reduce" });
    expect((await look(startingRow)).animation).toBe("none");
  } finally {
    for (const name of [starting, maintenance]) await operator.request.delete(`/api/v1/models/${name}`);
    await operator.context().close();
    await fake.close();
  }
});

test("a model's status dot keeps its colour in forced-colours (high contrast) mode", async ({ page }) => {
  await signInWithOrganization(page);
  await page.emulateMedia({ forcedColors: "active" });
  await page.goto("/models");
  const dot = builtinRow(page).getByTestId("status-dot");
  await expect(dot).toBeVisible();
  const colour = await dot.evaluate((el) => getComputedStyle(el).backgroundColor);
  // Forced colours replace backgrounds with the system's (transparent, or the page's Canvas): not this dot's green.
  const canvas = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(colour).not.toBe("rgba(0, 0, 0, 0)");
  expect(colour).not.toBe(canvas);
});
