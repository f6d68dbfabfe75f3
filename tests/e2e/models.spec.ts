import { signInWithOrganization } from "./support/auth";
import { fakeModels } from "./support/chat";
import { expect, test } from "./support/test";

test("the models table shows each model with its status, and opens the chat with it", async ({ page }) => {
  const { names, dispose } = await fakeModels(["echo"]);
  try {
    await signInWithOrganization(page);
    await page.goto("/models");
    const builtin = page.getByRole("row", { name: /builtin/ });
    await expect(builtin).toContainText("Built-in development model");
    await expect(builtin).toContainText("8,192");
    await expect(builtin.getByRole("img", { name: "Model is online and accepting requests" })).toBeAttached();
    const fake = page.getByRole("row", { name: new RegExp(names.echo) });
    await expect(fake).toContainText("32,768");
    await expect(fake.getByRole("img", { name: "Model is online and accepting requests" })).toBeAttached();
    await fake.getByRole("link", { name: /Chat with this model/ }).click();
    await expect(page).toHaveURL(new RegExp(`/chat\\?model=${names.echo}`));
    await expect(page.getByRole("button", { name: new RegExp(`Model: Fake echo`) })).toBeVisible();
  } finally {
    await dispose();
  }
});

test("a model's status dot shows its tooltip to the keyboard, as to the mouse", async ({ page }) => {
  await signInWithOrganization(page);
  await page.goto("/models");
  const row = page.getByRole("row", { name: /builtin/ });
  const tip = row.locator("[data-tip]");
  const shown = () => tip.evaluate((el) => getComputedStyle(el, "::before").opacity);
  await expect.poll(shown).toBe("0");
  await page.keyboard.press("Tab");
  await row.getByRole("img", { name: "Model is online and accepting requests" }).focus();
  await expect(row.getByRole("img", { name: "Model is online and accepting requests" })).toBeFocused();
  await expect.poll(shown).toBe("1");
});

test("a model's status dot keeps its colour in forced-colours (high contrast) mode", async ({ page }) => {
  await signInWithOrganization(page);
  await page.emulateMedia({ forcedColors: "active" });
  await page.goto("/models");
  const dot = page.getByRole("row", { name: /builtin/ }).locator("span.rounded-full");
  await expect(dot).toBeVisible();
  const colour = await dot.evaluate((el) => getComputedStyle(el).backgroundColor);
  // Forced colours replace backgrounds with the system's (transparent, or the page's Canvas): not this dot's green.
  const canvas = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(colour).not.toBe("rgba(0, 0, 0, 0)");
  expect(colour).not.toBe(canvas);
});
