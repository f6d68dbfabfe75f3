import { signInWithOrganization } from "./support/auth";
import { expect, test } from "./support/test";

/**
 * Issue 14.5: every demo page renders something meaningful without JavaScript. The pages that need a
 * script to run their demo have their own tests in demos-nojs.spec.ts; this sweeps the rest: each shows
 * its content, with nothing left busy or "Starting...".
 */
test.use({ javaScriptEnabled: false });

const PAGES = [
  "/synthesis-home",
  "/multimodal-home",
  "/avatar-home",
  "/task-home",
  "/task-execution?task=social-posts",
  "/template-home",
  "/template-editor",
  "/api-home",
  "/playground/text",
  "/playground/text/chat",
  "/video-generation",
  "/image-edit",
  "/multimodal-chat",
  "/avatar-chat",
];

test("every demo page shows its content without JavaScript", async ({ page }) => {
  await signInWithOrganization(page, "NoJsSweep");
  for (const path of PAGES) {
    await page.goto(path);
    const main = page.locator("main");
    expect((await main.innerText()).trim().length, `${path} says little`).toBeGreaterThan(80);
    await expect(main.locator('[aria-busy="true"]:visible'), `${path} is left busy`).toHaveCount(0);
    await expect(main.getByText("Starting...", { exact: true }), path).toBeHidden();
  }
});
