import { signInWithOrganization } from "./support/auth";
import { expect, test } from "./support/test";

/** Issue 14.5: every demo page says something meaningful without JavaScript. */
test.use({ javaScriptEnabled: false });

test.beforeEach(async ({ page }) => {
  await signInWithOrganization(page);
});

for (const [path, title] of [
  ["/video-generation", "Video Generation"],
  ["/image-edit", "Image Edit"],
] as const) {
  test(`${path} explains the demo instead of loading forever`, async ({ page }) => {
    await page.goto(path);
    const note = page.getByRole("region", { name: title });
    await expect(note).toContainText("turn on JavaScript to try it", { useInnerText: true });
    await expect(page.locator("main").getByLabel("Loading")).toBeHidden();
  });
}

test("/multimodal-chat shows the prompt it was given and why nothing answers", async ({ page }) => {
  await page.goto("/multimodal-chat?prompt=Paint%20a%20fox&modalities=text,image");
  // noscript content: rendered for a browser without scripts; Playwright's text matching skips noscript, innerText doesn't.
  await expect(page.locator("main")).toContainText("Your prompt: Paint a fox", { useInnerText: true });
  await expect(page.locator("main")).toContainText("turn on JavaScript to see them", { useInnerText: true });
  await expect(page.getByText("Starting...")).toBeHidden();
});

test("/multimodal-chat's modality toggles load the page again with ?modalities= toggled, the prompt kept", async ({ page }) => {
  await page.goto("/multimodal-chat?prompt=Paint%20a%20fox&modalities=text,image");
  const modalities = page.getByRole("group", { name: "Modalities" });
  await expect(modalities.getByRole("button", { name: "video", exact: true })).toHaveAttribute("aria-pressed", "false");
  await modalities.getByRole("button", { name: "video", exact: true }).click();
  await expect(page).toHaveURL(/\/multimodal-chat\?prompt=Paint\+a\+fox&modalities=text%2Cimage%2Cvideo$/);
  await expect(modalities.getByRole("button", { name: "video", exact: true })).toHaveAttribute("aria-pressed", "true");
  await modalities.getByRole("button", { name: "text", exact: true }).click();
  await expect(page).toHaveURL(/\/multimodal-chat\?prompt=Paint\+a\+fox&modalities=image%2Cvideo$/);
  await expect(modalities.getByRole("button", { name: "text", exact: true })).toHaveAttribute("aria-pressed", "false");
  await expect(page.locator("main")).toContainText("Your prompt: Paint a fox", { useInnerText: true });
});

test("/avatar-chat keeps the prompt it was given", async ({ page }) => {
  await page.goto("/avatar-chat?prompt=Tell%20me%20a%20joke");
  await expect(page.locator("main")).toContainText("Your prompt: Tell me a joke", { useInnerText: true });
  await expect(page.locator("main")).toContainText("turn on JavaScript to talk with her", { useInnerText: true });
});

test("/playground: every use case opens its route, a coming-soon one saying so before the click and 'Playground not found' after", async ({ page }) => {
  await page.goto("/playground/text");
  const cases = page.getByRole("list", { name: "Use cases" });
  await expect(cases.getByText("Coming soon")).toHaveCount(2);
  await expect(cases.getByRole("link")).toHaveText(["Open", "Open", "Open"]);
  await expect(cases.getByRole("link", { name: "Open Chat", exact: true })).toHaveAttribute("href", "/playground/text/chat");
  await cases.getByRole("link", { name: "Open Summarise (coming soon)" }).click();
  await expect(page).toHaveURL(/\/playground\/text\/summarize$/);
  await expect(page.getByRole("heading", { name: "Playground not found" })).toBeVisible();
});

test("/task-execution says why Run task is disabled", async ({ page }) => {
  await page.goto("/task-execution?task=social-posts");
  await expect(page.getByRole("button", { name: "Run task" })).toBeDisabled();
  await expect(page.locator("main")).toContainText("The simulated run happens in your browser and needs JavaScript.", { useInnerText: true });
});

test("/api-home shows no language tabs that could not switch, only the curl samples", async ({ page }) => {
  await page.goto("/api-home");
  const chat = page.getByRole("region", { name: "Chat completions" });
  await expect(chat.getByLabel("Chat completions curl sample")).toContainText("/v1/chat/completions");
  await expect(page.getByRole("tab")).toHaveCount(0);
});
