import { signInWithOrganization } from "./support/auth";
import { fillHydrated, pausedClock } from "./support/demos";
import { expect, test } from "./support/test";

test.beforeEach(async ({ page }) => {
  await signInWithOrganization(page);
});

test("an unknown playground category says 'Category not found', with status 404", async ({ page }) => {
  expect((await page.goto("/playground/chemistry"))?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Category not found" })).toBeVisible();
});

test("an unknown use case, or a known one in the wrong category, says 'Playground not found', with status 404", async ({ page }) => {
  expect((await page.goto("/playground/text/juggling"))?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Playground not found" })).toBeVisible();
  expect((await page.goto("/playground/image/chat"))?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Playground not found" })).toBeVisible();
  expect((await page.goto("/playground/nowhere/chat"))?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Playground not found" })).toBeVisible();
});

test("a category lists its use cases with model chips, and a card opens its playground", async ({ page }) => {
  expect((await page.goto("/playground/image"))?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "Image", exact: true })).toBeVisible();
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Text to Image" }) });
  await expect(card.getByRole("list", { name: "Models" })).toContainText("FLUX.1 schnell");
  await card.getByRole("link", { name: "Open Text to Image" }).click();
  await expect(page).toHaveURL(/\/playground\/image\/text-to-image$/);
  await expect(page).toHaveTitle("Text to Image · Playground · AI Console");
  await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText("Image");
  // Three models or fewer: tabs.
  await expect(page.getByRole("tablist", { name: "Model" }).getByRole("tab")).toHaveCount(3);
});

test("a coming-soon use case says so on its card, and its card opens its route, which says 'Playground not found'", async ({ page }) => {
  await page.goto("/playground/image");
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Upscale" }) });
  await expect(card).toContainText("Coming soon");
  await card.getByRole("link", { name: "Open Upscale (coming soon)" }).click();
  await expect(page).toHaveURL(/\/playground\/image\/upscale$/);
  await expect(page.getByRole("heading", { name: "Playground not found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to Image" }).click();
  await expect(page).toHaveURL(/\/playground\/image$/);
});

test("Generate is disabled on blank input, and the canned output appears after 2 s", async ({ page }) => {
  await pausedClock(page);
  await page.goto("/playground/text/chat");
  // More than three models: a dropdown.
  await expect(page.getByRole("combobox", { name: "Model" })).toBeVisible();
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  const generate = page.getByRole("button", { name: "Generate" });
  await expect(generate).toBeDisabled();
  await fillHydrated(prompt, "Explain vector databases", generate);
  await prompt.fill("   \n  ");
  await expect(generate).toBeDisabled();
  await prompt.fill("Explain vector databases");
  await expect(generate).toBeEnabled();
  await page.getByRole("combobox", { name: "Model" }).selectOption("Mistral Large");
  await generate.click();
  await expect(page.getByRole("progressbar", { name: "Generating" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Generating..." })).toBeDisabled();
  await page.clock.runFor(1_900);
  await expect(page.getByText(/Here is a response from/)).toHaveCount(0);
  await page.clock.runFor(100);
  await expect(page.getByText('Here is a response from Mistral Large to "Explain vector databases".')).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Generating" })).toHaveCount(0);
});

test("Generate from the keyboard keeps focus on the button while busy, and ignores a second press", async ({ page }) => {
  await pausedClock(page);
  await page.goto("/playground/text/chat");
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  const generate = page.getByRole("button", { name: "Generate" });
  await fillHydrated(prompt, "Explain vector databases", generate);
  await generate.focus();
  await page.keyboard.press("Enter");
  const busy = page.getByRole("button", { name: "Generating..." });
  await expect(busy).toBeDisabled();
  await expect(busy).toBeFocused();
  await page.keyboard.press("Enter");
  await page.clock.runFor(2_000);
  await expect(page.getByText(/Here is a response from/)).toHaveCount(1);
  await expect(generate).toBeFocused();
  // A press while busy started nothing: no second run is pending.
  await page.clock.runFor(2_000);
  await expect(page.getByRole("progressbar", { name: "Generating" })).toHaveCount(0);
});

test("a long unbroken word wraps inside the output, on a phone and on a desktop", async ({ page }) => {
  const word = "https://example.com/" + "averyveryverylongunbrokenword".repeat(6);
  await pausedClock(page);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/playground/text/chat");
    const generate = page.getByRole("button", { name: "Generate" });
    await fillHydrated(page.getByRole("textbox", { name: "Prompt" }), word, generate);
    await generate.click();
    await page.clock.runFor(2_000);
    const output = page.getByRole("status").filter({ hasText: "Here is a response from" });
    await expect(output).toBeVisible();
    const [scrollWidth, clientWidth] = await output.evaluate((el) => [el.scrollWidth, el.clientWidth]);
    expect(scrollWidth, `${width} px`).toBeLessThanOrEqual(clientWidth);
  }
});

test("the model cannot change while a run is under way, so the result names the model shown", async ({ page }) => {
  await pausedClock(page);
  await page.goto("/playground/image/text-to-image");
  const generate = page.getByRole("button", { name: "Generate" });
  await fillHydrated(page.getByRole("textbox", { name: "Prompt" }), "A lighthouse at dusk", generate);
  const models = page.getByRole("tablist", { name: "Model" });
  await generate.click();
  await expect(page.getByText("Generating with FLUX.1 schnell...")).toBeVisible();
  await expect(models.getByRole("tab", { name: "SDXL" })).toBeDisabled();
  await page.clock.runFor(2_000);
  await expect(page.getByRole("status").filter({ hasText: "FLUX.1 schnell" })).toBeVisible();
  await expect(models.getByRole("tab", { name: "FLUX.1 schnell" })).toHaveAttribute("aria-selected", "true");
  await models.getByRole("tab", { name: "SDXL" }).click();
  await expect(models.getByRole("tab", { name: "SDXL" })).toHaveAttribute("aria-selected", "true");
});
