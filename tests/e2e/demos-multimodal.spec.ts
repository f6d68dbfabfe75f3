import { signInWithOrganization } from "./support/auth";
import { fillHydrated, pausedClock, stubSpeech, voiceReady } from "./support/demos";
import { expect, test } from "./support/test";

test.beforeEach(async ({ page }) => {
  await signInWithOrganization(page);
});

test("the multimodal prompt is carried to the chat, and its tool calls complete after 2 s", async ({ page }) => {
  await stubSpeech(page);
  await pausedClock(page);
  await page.goto("/multimodal-home");
  for (const modality of ["Text", "Image", "Video", "Audio"]) await expect(page.getByRole("list", { name: "Modalities" })).toContainText(modality);
  const box = page.getByPlaceholder("Start a message...");
  await expect(box).toHaveAttribute("rows", "3");
  await voiceReady(page);
  await box.fill("A fox in the snow");
  await box.press("Shift+Enter");
  await box.pressSequentially("at dawn");
  await box.press("Enter");

  await expect(page).toHaveURL(/\/multimodal-chat\?/);
  const url = new URL(page.url());
  expect(url.searchParams.get("prompt")).toBe("A fox in the snow\nat dawn");
  expect(url.searchParams.get("modalities")).toBe("text,image,video,audio");
  const messages = page.getByRole("list", { name: "Messages" });
  await expect(messages.getByRole("listitem", { name: "Your message" })).toContainText("A fox in the snow");

  await page.clock.runFor(1_000);
  const reply = messages.getByRole("listitem", { name: "Assistant reply" });
  await expect(reply).toContainText("A fox in the snow");
  const calls = reply.getByRole("list", { name: "Tool calls" }).getByRole("listitem");
  await expect(calls).toHaveText([/generate_image\s*running/, /generate_video\s*running/, /generate_audio\s*running/]);
  await expect(reply.getByRole("img", { name: "Generated image (placeholder)" })).toHaveCount(0);

  // Announced once finished: not while its tool calls run.
  const live = page.locator('[aria-live="polite"]').filter({ hasText: /^Reply / });
  await expect(live).toHaveCount(0);

  await page.clock.runFor(2_000);
  await expect(calls).toHaveText([/generate_image\s*completed/, /generate_video\s*completed/, /generate_audio\s*completed/]);
  await expect(live).toHaveText(/^Reply finished: .*A fox in the snow.* generate_image completed, generate_video completed, generate_audio completed\.$/s);
  await expect(reply.getByRole("img", { name: "Generated image (placeholder)" })).toBeVisible();
  await expect(reply.getByRole("figure", { name: "Generated video (placeholder)" })).toBeVisible();

  // The last reply can be read aloud.
  await reply.getByRole("button", { name: "Read aloud" }).click();
  expect(await page.evaluate(() => window.__speech.spoken)).toEqual([expect.stringContaining("A fox in the snow")]);
});

test("the send button carries the prompt too, and is disabled while the box is blank", async ({ page }) => {
  await page.goto("/multimodal-home");
  await voiceReady(page);
  const send = page.getByRole("button", { name: "Send" });
  await expect(send).toBeDisabled();
  await page.getByPlaceholder("Start a message...").fill("Hello");
  await send.click();
  await expect(page).toHaveURL(/\/multimodal-chat\?prompt=Hello&modalities=text%2Cimage%2Cvideo%2Caudio$/);
  // The attach button does nothing.
  await page.getByRole("button", { name: "Attach a file" }).click();
  await expect(page).toHaveURL(/\/multimodal-chat\?prompt=Hello/);
});

test("with JavaScript a modality toggle stays in the page, and the next message asks only for the modalities left", async ({ page }) => {
  await pausedClock(page);
  await page.goto("/multimodal-chat");
  await voiceReady(page);
  const video = page.getByRole("group", { name: "Modalities" }).getByRole("button", { name: "video", exact: true });
  await expect(video).toHaveAttribute("aria-pressed", "true");
  await video.click();
  await expect(video).toHaveAttribute("aria-pressed", "false");
  await expect(page).toHaveURL(/\/multimodal-chat$/);
  const box = page.getByPlaceholder("Start a message...");
  await box.fill("Hello");
  await box.press("Enter");
  await page.clock.runFor(1_000);
  const reply = page.getByRole("list", { name: "Messages" }).getByRole("listitem", { name: "Assistant reply" });
  await expect(reply.getByRole("list", { name: "Tool calls" }).getByRole("listitem")).toHaveText([/generate_image/, /generate_audio/]);
});

test("voice input fills the prompt through an en-US, non-continuous recognizer", async ({ page }) => {
  await stubSpeech(page, { transcript: "Paint a lighthouse" });
  await pausedClock(page);
  await page.goto("/multimodal-home");
  await voiceReady(page);
  await page.getByRole("button", { name: "Voice input" }).click();
  await expect(page.getByRole("button", { name: "Stop voice input" })).toBeVisible();
  await page.clock.runFor(500);
  await expect(page.getByPlaceholder("Start a message...")).toHaveValue("Paint a lighthouse");
  expect(await page.evaluate(() => window.__speech.recognitions)).toEqual([{ lang: "en-US", continuous: false, interimResults: false }]);
});

test("voice input says when the browser has none", async ({ page }) => {
  await stubSpeech(page, { recognition: false });
  await page.goto("/multimodal-home");
  await voiceReady(page);
  await page.getByRole("button", { name: "Voice input" }).click();
  await expect(page.getByRole("alert")).toHaveText("Speech recognition is not supported in this browser");
});

test("a recognition error shows its code", async ({ page }) => {
  await stubSpeech(page, { transcript: "error:not-allowed" });
  await pausedClock(page);
  await page.goto("/multimodal-chat");
  await voiceReady(page);
  await page.getByRole("button", { name: "Voice input" }).click();
  await page.clock.runFor(500);
  await expect(page.getByRole("alert")).toHaveText("Speech recognition error: not-allowed");
});

test("a recognizer that cannot start says so", async ({ page }) => {
  await stubSpeech(page, { failToStart: true });
  await page.goto("/avatar-home");
  await voiceReady(page);
  await page.getByRole("button", { name: "Voice input" }).click();
  await expect(page.getByRole("alert")).toHaveText("Failed to start speech recognition");
});

test("Send from the keyboard brings focus back to the message box", async ({ page }) => {
  await pausedClock(page);
  await page.goto("/multimodal-chat");
  const box = page.getByRole("textbox", { name: "Message" });
  const send = page.getByRole("button", { name: "Send" });
  await fillHydrated(box, "Hello", send);
  await send.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("listitem", { name: "Your message" })).toHaveText("Hello");
  await expect(box).toBeFocused();
  await page.clock.runFor(1_000);
  await expect(page.getByRole("listitem", { name: "Assistant reply" })).toBeVisible();
  await expect(box).toBeFocused();
});

test("a long unbroken word wraps inside the chat bubbles, on a phone and on a desktop", async ({ page }) => {
  const word = "https://example.com/" + "averyveryverylongunbrokenword".repeat(6);
  await pausedClock(page);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`/multimodal-chat?modalities=text&prompt=${encodeURIComponent(word)}`);
    await page.clock.runFor(1_000);
    const bubbles = page.locator(".chat-bubble");
    await expect(page.getByRole("listitem", { name: "Assistant reply" })).toContainText(word.slice(0, 40));
    for (const bubble of await bubbles.all()) {
      // The text's own box against the bubble's (scrollWidth would count the bubble's tail, drawn outside it).
      const [textRight, bubbleRight] = await bubble.evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return [range.getBoundingClientRect().right, el.getBoundingClientRect().right];
      });
      expect(textRight, `${width} px`).toBeLessThanOrEqual(bubbleRight);
    }
  }
});

test("the prompt box grows with wrapped text too, from 3 rows up to 8, and shrinks when cleared", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/multimodal-home");
  await voiceReady(page);
  const box = page.getByPlaceholder("Start a message...");
  await expect(box).toHaveAttribute("rows", "3");
  const sentence = "Make a 30-second product teaser for our new reusable water bottle, with upbeat music and a short voice-over. ";
  await box.fill(sentence.repeat(2));
  await expect(box).not.toHaveAttribute("rows", "3");
  const [scrollHeight, clientHeight] = await box.evaluate((el) => [el.scrollHeight, el.clientHeight]);
  expect(scrollHeight).toBeLessThanOrEqual(clientHeight);
  await box.fill(sentence.repeat(10));
  await expect(box).toHaveAttribute("rows", "8");
  await box.fill("");
  await expect(box).toHaveAttribute("rows", "3");
});

test("the chat follows the newest message without smooth scrolling when the user asks for reduced motion", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.addInitScript(() => {
    const w = window as unknown as { __scrolls: unknown[] };
    w.__scrolls = [];
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (options?: boolean | ScrollIntoViewOptions) {
      w.__scrolls.push(options);
      return original.call(this, options);
    };
  });
  await pausedClock(page);
  await page.goto("/multimodal-chat?prompt=Hello&modalities=text");
  await page.clock.runFor(1_000);
  await expect(page.getByRole("listitem", { name: "Assistant reply" })).toBeVisible();
  const scrolls = await page.evaluate(() => (window as unknown as { __scrolls: ScrollIntoViewOptions[] }).__scrolls);
  expect(scrolls.length).toBeGreaterThan(0);
  for (const s of scrolls) expect(s.behavior).toBe("auto");
});
