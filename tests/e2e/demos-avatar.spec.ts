import { signInWithOrganization } from "./support/auth";
import { pausedClock, stubSpeech, voiceReady } from "./support/demos";
import { expect, test } from "./support/test";

test.beforeEach(async ({ page }) => {
  await signInWithOrganization(page);
  await stubSpeech(page);
  await pausedClock(page);
});

test("the avatar's greeting hints rotate every 15 s, and the prompt goes to the chat", async ({ page }) => {
  await page.goto("/avatar-home");
  await expect(page.getByText("Hi, I'm Nova, your AI assistant.")).toBeVisible();
  const hint = page.getByTestId("avatar-hint");
  await expect(hint).toHaveText("Try asking: “Draw a cosy cabin in the snow”");
  await voiceReady(page);
  await page.clock.runFor(14_000);
  await expect(hint).toHaveText("Try asking: “Draw a cosy cabin in the snow”");
  await page.clock.runFor(1_000);
  await expect(hint).toHaveText("Tap the microphone and just talk to me");
  await page.clock.runFor(15_000);
  await expect(hint).toHaveText("Ask me to explain any AI model in plain words");
  // Rotating for as long as the page is open: not announced each time (WCAG 2.2.2).
  expect(await hint.evaluate((el) => el.closest("[aria-live]"))).toBeNull();

  await page.getByRole("textbox", { name: "Message for the avatar" }).fill("Tell me a joke");
  await page.getByRole("button", { name: "Talk to Nova" }).click();
  await expect(page).toHaveURL(/\/avatar-chat\?prompt=Tell\+me\+a\+joke$/);
  await expect(page.getByRole("list", { name: "Messages" }).getByRole("listitem", { name: "Your message" })).toHaveText("Tell me a joke");
});

test("the rotating hints can be paused, and resumed", async ({ page }) => {
  await page.goto("/avatar-home");
  const hint = page.getByTestId("avatar-hint");
  await expect(hint).toHaveText("Try asking: “Draw a cosy cabin in the snow”");
  await page.getByRole("button", { name: "Pause hints" }).click();
  await page.clock.runFor(45_000);
  await expect(hint).toHaveText("Try asking: “Draw a cosy cabin in the snow”");
  await page.getByRole("button", { name: "Resume hints" }).click();
  await page.clock.runFor(15_000);
  await expect(hint).toHaveText("Tap the microphone and just talk to me");
});

test("a screen reader hears Nova's reply, not the greeting the page starts with", async ({ page }) => {
  await page.goto("/avatar-chat");
  await voiceReady(page);
  const live = page.locator('[aria-live="polite"]').filter({ hasText: /^Reply / });
  await expect(page.getByRole("listitem", { name: "Assistant reply" })).toHaveCount(1);
  await expect(live).toHaveCount(0);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Tell me a joke");
  await box.press("Enter");
  await page.clock.runFor(1_000);
  const reply = page.getByRole("listitem", { name: "Assistant reply" }).last();
  await expect(live).toHaveText(`Reply finished: ${(await reply.textContent())!.trim()}`);
});

test("the avatar thinks, speaks its canned reply, and returns to idle", async ({ page }) => {
  await page.goto("/avatar-chat?prompt=Please%20draw%20a%20cat");
  const state = page.getByRole("status", { name: /Avatar is/ });
  await expect(state).toHaveText("Thinking...");
  await page.clock.runFor(1_000);
  await expect(state).toHaveText("Speaking...");
  const reply = page.getByRole("listitem", { name: "Assistant reply" }).last();
  await expect(reply).toContainText("Here is an image I made");
  await expect(reply.getByRole("img", { name: "Generated image (placeholder)" })).toBeVisible();
  expect(await page.evaluate(() => window.__speech.spoken)).toEqual([expect.stringContaining("Here is an image I made")]);
  await page.clock.runFor(3_000);
  await expect(state).toHaveText("Ready");
});

test("with reduced motion asked for, the avatar's ring and the voice button stay still in every state", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  const moving = () =>
    page.evaluate(() =>
      document
        .getAnimations()
        .filter((a) => a.playState === "running")
        .map((a) => (a as CSSAnimation).animationName)
        .filter((name) => name === "pulse" || name === "bounce"),
    );
  await page.goto("/avatar-chat");
  await voiceReady(page);
  const state = page.getByRole("status", { name: /Avatar is/ });
  await page.getByRole("button", { name: "Voice input" }).click();
  await expect(state).toHaveText("Listening...");
  expect(await moving()).toEqual([]);
  await page.clock.runFor(500);
  await expect(state).toHaveText("Thinking...");
  expect(await moving()).toEqual([]);
  await page.clock.runFor(1_000);
  await expect(state).toHaveText("Speaking...");
  expect(await moving()).toEqual([]);
});

test("voice input puts the avatar in the listening state and sends what was heard", async ({ page }) => {
  await page.goto("/avatar-chat");
  await voiceReady(page);
  const state = page.getByRole("status", { name: /Avatar is/ });
  await expect(state).toHaveText("Ready");
  await page.getByRole("button", { name: "Voice input" }).click();
  await expect(state).toHaveText("Listening...");
  await page.clock.runFor(500);
  await expect(page.getByRole("listitem", { name: "Your message" })).toHaveText("Draw a red fox in the snow");
  await expect(state).toHaveText("Thinking...");
});

test("voice input while Nova is thinking waits in the box instead of sending", async ({ page }) => {
  await page.goto("/avatar-chat");
  await voiceReady(page);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Tell me a joke");
  await box.press("Enter");
  const state = page.getByRole("status", { name: /Avatar is/ });
  await expect(state).toHaveText("Thinking...");
  await page.clock.runFor(200);
  await page.getByRole("button", { name: "Voice input" }).click();
  await page.clock.runFor(500);
  await expect(box).toHaveValue("Draw a red fox in the snow");
  await expect(page.getByRole("listitem", { name: "Your message" })).toHaveCount(1);
  await expect(state).toHaveText("Thinking...");
  await page.clock.runFor(300);
  await expect(state).toHaveText("Speaking...");
  await expect(page.getByRole("listitem", { name: "Nova is thinking" })).toHaveCount(0);
});

test("an idle nudge appears after 20 s and stays for 5 s", async ({ page }) => {
  await page.goto("/avatar-chat");
  await voiceReady(page);
  const nudge = page.getByRole("note");
  await page.clock.runFor(19_000);
  await expect(nudge).toHaveCount(0);
  await page.clock.runFor(1_000);
  await expect(nudge).toHaveText(/Still there\?|Need an idea\?/);
  expect(await nudge.evaluate((el) => el.closest("[aria-live]"))).toBeNull();
  await page.clock.runFor(4_000);
  await expect(nudge).toBeVisible();
  await page.clock.runFor(1_000);
  await expect(nudge).toHaveCount(0);
});
