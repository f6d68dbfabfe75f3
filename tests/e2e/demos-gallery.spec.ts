import { signInWithOrganization } from "./support/auth";
import { fillHydrated, pausedClock } from "./support/demos";
import { expect, hydrated, test } from "./support/test";

test.beforeEach(async ({ page }) => {
  await signInWithOrganization(page);
});

test("template search matches tags, tabs narrow it, and an empty result says so", async ({ page }) => {
  await page.goto("/template-home");
  await expect(page.getByRole("heading", { name: "Featured" })).toBeVisible();
  const all = page.getByRole("region", { name: /All templates/ });
  await expect(all.getByRole("article")).toHaveCount(10);
  const search = page.getByRole("searchbox", { name: "Search templates" });
  await expect(async () => {
    await search.fill("ecommerce");
    await expect(all.getByRole("article")).toHaveCount(1, { timeout: 1_000 });
  }).toPass();
  await expect(all.getByRole("article", { name: "Product Photos" })).toBeVisible();

  // "voice" is a tag of two audio templates and in the description of a marketing one.
  await search.fill("voice");
  await expect(all.getByRole("article")).toHaveCount(3);
  await page.getByRole("tab", { name: "Video" }).click();
  await expect(page.getByText("No templates found matching your search")).toBeVisible();
  await page.getByRole("tab", { name: "Audio" }).click();
  await expect(all.getByRole("article")).toHaveCount(2);

  await search.fill("nothing like this exists");
  await expect(page.getByText("No templates found matching your search")).toBeVisible();
});

test("the gallery's search and tab live in the URL: Back from the editor and a reload restore them, clearing clears it", async ({ page }) => {
  await page.goto("/template-home");
  const all = page.getByRole("region", { name: /All templates/ });
  const search = page.getByRole("searchbox", { name: "Search templates" });
  await expect(async () => {
    await search.fill("v");
    await expect(page).toHaveURL(/\?q=v$/, { timeout: 1_000 });
  }).toPass();
  const entries = await page.evaluate(() => history.length);
  // Typing is not a navigation: the layout's data is not fetched again for each keystroke.
  const loads: string[] = [];
  page.on("request", (request) => {
    // Remix's single fetch asks for a page's data at `<path>.data`.
    if (new URL(request.url()).pathname.endsWith(".data")) loads.push(request.url());
  });
  await search.pressSequentially("oice");
  await expect(page).toHaveURL(/\?q=voice$/);
  await expect(search).toBeFocused();
  await page.getByRole("tab", { name: "Audio" }).click();
  await expect(page).toHaveURL(/\?q=voice&tab=Audio$/);
  expect(await page.evaluate(() => history.length)).toBe(entries);
  expect(loads).toEqual([]);

  await page.getByRole("link", { name: "Use Template: Podcast Intro" }).click();
  await expect(page).toHaveURL(/\/template-editor\?template=/);
  await page.goBack();
  await expect(search).toHaveValue("voice");
  await expect(page.getByRole("tab", { name: "Audio" })).toHaveAttribute("aria-selected", "true");
  await expect(all.getByRole("article")).toHaveCount(2);
  await page.reload();
  await expect(search).toHaveValue("voice");
  await expect(all.getByRole("article")).toHaveCount(2);

  await expect(async () => {
    await search.fill("");
    await expect(page).toHaveURL(/\?tab=Audio$/, { timeout: 1_000 });
  }).toPass();
  // The tabs follow the WAI-ARIA pattern: one Tab stop, the arrow keys move and select.
  const audio = page.getByRole("tab", { name: "Audio" });
  await expect(audio).not.toHaveAttribute("tabindex", "-1");
  await expect(page.getByRole("tab", { name: "Video" })).toHaveAttribute("tabindex", "-1");
  await audio.focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: "Image" })).toBeFocused();
  await expect(page).toHaveURL(/\?tab=Image$/);
  await page.keyboard.press("Home");
  await expect(page.getByRole("tab", { name: "All" })).toBeFocused();
  await expect(page.getByRole("tab", { name: "All" })).toHaveAttribute("aria-selected", "true");
  await expect(page).toHaveURL(/\/template-home$/);
  await page.reload();
  await expect(all.getByRole("article")).toHaveCount(10);
  // A link from elsewhere (the sidebar) replaces what was typed.
  await search.fill("blog");
  await expect(page).toHaveURL(/\?q=blog$/);
  await page.getByRole("navigation", { name: "Home" }).getByRole("link", { name: "Templates" }).click();
  await expect(page).toHaveURL(/\/template-home$/);
  await expect(search).toHaveValue("");
});

test("Clear search from the keyboard brings the templates back and leaves focus in the search box", async ({ page }) => {
  await page.goto("/template-home?q=nothing%20like%20this&tab=Video");
  // Without JavaScript the link reloads the page; the focus move is React's.
  await hydrated(page);
  const clear = page.getByRole("link", { name: "Clear search" });
  await clear.focus();
  await page.keyboard.press("Enter");
  const search = page.getByRole("searchbox", { name: "Search templates" });
  await expect(page.getByRole("region", { name: /All templates/ }).getByRole("article")).toHaveCount(10);
  await expect(clear).toHaveCount(0);
  await expect(search).toHaveValue("");
  await expect(search).toBeFocused();
  await expect(page).toHaveURL(/\/template-home$/);
});

test("a favourite toggles on the page, and Use Template opens the editor with its fields", async ({ page }) => {
  await page.goto("/template-home?q=blog");
  const card = page.getByRole("article", { name: "Blog Post" });
  const favourite = card.getByRole("button", { name: "Add Blog Post to favourites" });
  await favourite.click();
  await expect(card.getByRole("button", { name: "Remove Blog Post from favourites" })).toHaveAttribute("aria-pressed", "true");
  await card.getByRole("link", { name: "Use Template: Blog Post" }).click();
  await expect(page).toHaveURL(/\/template-editor\?template=blog-post$/);
  await expect(page.getByRole("heading", { name: "Blog Post" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Title" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Key points" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Tone" })).toBeVisible();
});

test("the template editor's Generate keeps keyboard focus while busy", async ({ page }) => {
  await pausedClock(page);
  await page.goto("/template-editor?template=blog-post");
  const generate = page.getByRole("button", { name: "Generate" });
  await expect(generate).toBeEnabled();
  await generate.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Generating..." })).toBeFocused();
  await page.clock.runFor(2_000);
  await expect(page.getByText("Draft of “Blog Post” ready (simulated):")).toBeVisible();
  await expect(generate).toBeFocused();
});

test("the template editor with an unknown template answers 404, and without one offers the way back", async ({ page }) => {
  expect((await page.goto("/template-editor?template=nope"))?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Template not found" })).toBeVisible();
  expect((await page.goto("/template-editor"))?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "No template selected" })).toBeVisible();
  await page.getByRole("link", { name: "Back to templates" }).click();
  await expect(page).toHaveURL(/\/template-home$/);
});

test("Start Task opens a dialog with the steps and models, then goes to the task's execution", async ({ page }) => {
  await page.goto("/task-home");
  await expect(page.getByRole("list", { name: "Tasks" }).getByRole("article")).toHaveCount(6);
  await page.getByRole("link", { name: "Start Task: Translate Content" }).click();
  const dialog = page.getByRole("dialog", { name: "Translate Content" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("listitem")).toContainText([
    "Paste or upload the content",
    "Choose the languages",
    "Translate",
    "Review the result",
    "NLLB 200",
    "Qwen 2.5 72B",
  ]);
  await dialog.getByRole("link", { name: "Start Task" }).click();
  await expect(page).toHaveURL(/\/task-execution\?task=translate-content$/);
  // The steps list exists only on the execution page: once it shows, the task list and its dialog are gone.
  await expect(page.getByRole("list", { name: "Steps" }).getByRole("listitem")).toHaveCount(4);
  await expect(page.getByRole("heading", { name: "Translate Content" })).toBeVisible();
});

test("a task runs its steps in simulation; an unknown task answers 404 and the page without one offers the way back", async ({ page }) => {
  await pausedClock(page);
  await page.goto("/task-execution?task=social-posts");
  const run = page.getByRole("button", { name: "Run task" });
  await expect(run).toBeEnabled();
  // From the keyboard: the one button follows the run, so focus stays on it.
  await run.focus();
  await page.keyboard.press("Enter");
  const steps = page.getByRole("list", { name: "Steps" }).getByRole("listitem");
  await expect(steps.first()).toContainText("running");
  await expect(page.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.clock.runFor(8_000);
  await expect(page.getByText("Task complete (simulated).")).toBeVisible();
  // "Run again" runs it again, at once.
  await page.keyboard.press("Enter");
  await expect(steps.first()).toContainText("running");
  await expect(page.getByText("Task complete (simulated).")).toHaveCount(0);
  expect((await page.goto("/task-execution?task=nope"))?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Task not found" })).toBeVisible();
  expect((await page.goto("/task-execution"))?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "No task selected" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to tasks" })).toHaveAttribute("href", "/task-home");
});

test("the API home shows the stats and samples, and Copy reads 'Copied!' for 2 s", async ({ page, context, baseURL }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  await pausedClock(page);
  await page.goto("/api-home");
  for (const figure of ["99.9%", "< 2 s", "50%", "100+"]) await expect(page.getByText(figure, { exact: true })).toBeVisible();
  const chat = page.getByRole("region", { name: "Chat completions" });
  await expect(chat.getByLabel("Chat completions curl sample")).toContainText("/v1/chat/completions");
  await expect(chat.getByLabel("Chat completions curl sample")).toContainText("Authorization: Bearer {key}");
  // From the keyboard: the arrow keys move along the languages and select each one reached.
  await chat.getByRole("tab", { name: "curl" }).focus();
  await page.keyboard.press("ArrowLeft");
  await expect(chat.getByRole("tab", { name: "javascript" })).toBeFocused();
  await page.keyboard.press("Home");
  await page.keyboard.press("ArrowRight");
  await expect(chat.getByRole("tab", { name: "python" })).toBeFocused();
  await expect(chat.getByLabel("Chat completions python sample")).toContainText("urllib.request.urlopen(request)");
  await expect(chat.getByRole("tab", { name: "curl" })).toHaveAttribute("tabindex", "-1");
  await expect(page.getByRole("region", { name: "Image generations" })).toContainText("/v1/images/generations");
  await expect(page.getByRole("region", { name: "Audio transcriptions" })).toContainText("/v1/audio/transcriptions");

  const copy = chat.getByRole("button", { name: "Copy" });
  await expect(async () => {
    await copy.click();
    await expect(chat.getByRole("button", { name: "Copied!" })).toBeVisible({ timeout: 1_000 });
  }).toPass();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain("urllib.request.urlopen(request)");
  await page.clock.runFor(1_900);
  await expect(chat.getByRole("button", { name: "Copied!" })).toBeVisible();
  await page.clock.runFor(100);
  await expect(chat.getByRole("button", { name: "Copy" })).toBeVisible();
});

test("a copy the browser refuses says 'Copy failed' for 2 s", async ({ page }) => {
  await page.addInitScript(() => {
    navigator.clipboard.writeText = () => Promise.reject(new DOMException("Write permission denied.", "NotAllowedError"));
  });
  await pausedClock(page);
  await page.goto("/api-home");
  const chat = page.getByRole("region", { name: "Chat completions" });
  await expect(async () => {
    await chat.getByRole("button", { name: "Copy" }).click();
    await expect(chat.getByRole("button", { name: "Copy failed" })).toBeVisible({ timeout: 1_000 });
  }).toPass();
  await page.clock.runFor(2_000);
  await expect(chat.getByRole("button", { name: "Copy", exact: true })).toBeVisible();
});

test("on a phone, the API home's Copy buttons leave the code's first line uncovered", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/api-home");
  for (const name of ["Chat completions", "Image generations", "Audio transcriptions"]) {
    const region = page.getByRole("region", { name });
    const copy = (await region.getByRole("button", { name: "Copy" }).boundingBox())!;
    const code = (await region.getByLabel(`${name} curl sample`).locator("code").boundingBox())!;
    expect(copy.y + copy.height, name).toBeLessThanOrEqual(code.y);
  }
});

test("the sidebar highlights the demo home on the later pages of its flow", async ({ page }) => {
  for (const [path, item] of [
    ["/playground/text", "Home Categories"],
    ["/playground/image/text-to-image", "Home Categories"],
    ["/multimodal-chat", "Multimodal"],
    ["/avatar-chat", "Avatar"],
    ["/task-execution?task=social-posts", "Tasks"],
    ["/template-editor?template=blog-post", "Templates"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("navigation", { name: "Home" }).locator("[aria-current=page]"), path).toHaveText(item);
  }
});

test("synthesis links to the three homes, and the lazily loaded studios work", async ({ page }) => {
  await pausedClock(page);
  await page.goto("/synthesis-home");
  const cards = page.getByRole("main");
  await expect(cards.getByRole("link", { name: /^Multi-Modal/ })).toHaveAttribute("href", "/multimodal-home");
  await expect(cards.getByRole("link", { name: /^Workflows/ })).toHaveAttribute("href", "/task-home");
  await expect(cards.getByRole("link", { name: /^API/ })).toHaveAttribute("href", "/api-home");

  await page.goto("/video-generation");
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  const generate = page.getByRole("button", { name: "Generate video" });
  await expect(generate).toBeDisabled();
  await fillHydrated(prompt, "Waves on a beach", generate);
  await generate.click();
  await page.clock.runFor(2_000);
  await expect(page.getByRole("list", { name: "Generated clips" })).toContainText('rendered a 5 s clip at 720p, 24 fps, for "Waves on a beach"');

  await page.goto("/image-edit");
  const instruction = page.getByRole("textbox", { name: "What should change?" });
  const apply = page.getByRole("button", { name: "Apply edit" });
  await fillHydrated(instruction, "Make it black and white", apply);
  await page.getByRole("radio", { name: "Black & white" }).click();
  await apply.click();
  await page.clock.runFor(2_000);
  await expect(page.getByRole("img", { name: "Edited: Make it black and white" })).toBeVisible();
});

test("the image editor's Style is one Tab stop, and the arrow keys, Home and End move along the styles and check them", async ({ page }) => {
  await page.goto("/image-edit");
  const styles = page.getByRole("radiogroup", { name: "Style" });
  const style = (name: string) => styles.getByRole("radio", { name, exact: true });
  await expect(style("Enhance")).toBeChecked();
  await style("Enhance").focus();
  await page.keyboard.press("ArrowRight");
  await expect(style("Black & white")).toBeFocused();
  await expect(style("Black & white")).toBeChecked();
  await expect(style("Enhance")).not.toBeChecked();
  await page.keyboard.press("ArrowDown");
  await expect(style("Warm")).toBeFocused();
  await expect(style("Warm")).toBeChecked();
  await page.keyboard.press("ArrowUp");
  await expect(style("Black & white")).toBeChecked();
  await page.keyboard.press("End");
  await expect(style("Vintage")).toBeFocused();
  await expect(style("Vintage")).toBeChecked();
  await page.keyboard.press("ArrowRight");
  await expect(style("Enhance")).toBeFocused();
  await expect(style("Enhance")).toBeChecked();
  await page.keyboard.press("ArrowLeft");
  await expect(style("Vintage")).toBeChecked();
  await page.keyboard.press("Home");
  await expect(style("Enhance")).toBeChecked();
  await page.keyboard.press("ArrowRight");
  // One Tab stop: Tab leaves the group for the instruction, Shift+Tab comes back to the checked style.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("textbox", { name: "What should change?" })).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(style("Black & white")).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(styles.locator(":focus")).toHaveCount(0);
});
