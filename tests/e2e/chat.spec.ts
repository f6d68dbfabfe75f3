import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createOrganizationWithRequests, signInWithOrganization } from "./support/auth";
import { switchOrganization } from "./support/team";
import { fakeModels } from "./support/chat";
import { expect, hydrated, test, visibleText } from "./support/test";

const input = (page: Page) => page.getByRole("textbox", { name: "Message" });
const replies = (page: Page) => page.getByRole("listitem", { name: "Assistant message" });
/** The polite live region that tells a screen reader how a reply ended. */
const announcer = (page: Page) => page.locator('[aria-live="polite"]').filter({ hasText: /^Reply / });
const picker = (page: Page) => page.getByRole("button", { name: /^Model / });

/** axe's serious and critical WCAG A/AA failures in the chat's footer (its notices), in both themes. */
async function footerViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const results = await new AxeBuilder({ page })
      .include("form:has(#chat-input)")
      .include(".alert")
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .analyze();
    found.push(...results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${colorScheme} ${v.id}`));
  }
  return found;
}

test("choose a model, send, watch the reply stream in, open and close its thinking, regenerate and delete", async ({ page }) => {
  await signInWithOrganization(page);
  const [first] = ((await (await page.request.get("/api/v1/models")).json()) as { data: { displayName: string }[] }).data;
  await page.goto("/chat?model=no-such-model");
  // SPEC §2: the query's model counts only if it is known; otherwise the first model is selected, ready to chat.
  await expect(picker(page)).toContainText(first.displayName);
  await expect(input(page)).toBeEnabled();
  await page.getByRole("button", { name: /^Model / }).click();
  await page.getByRole("option", { name: /Built-in development model/ }).click();
  await expect(page.getByRole("button", { name: /^Model Built-in development model/ })).toBeVisible();

  await input(page).fill("Hello there");
  await input(page).press("Enter");
  await expect(page.getByRole("listitem", { name: "Your message" })).toContainText("Hello there");
  await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  await expect(replies(page)).toContainText("You said: Hello there");
  await expect(replies(page)).toContainText("I am the built-in development model");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await expect(input(page)).toBeFocused();

  const toggle = page.getByRole("button", { name: "Show thinking" });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.click();
  const hide = page.getByRole("button", { name: "Hide thinking" });
  await expect(hide).toHaveAttribute("aria-expanded", "true");
  await expect(replies(page)).toContainText("I have no real model behind me");
  await hide.click();
  await expect(replies(page)).not.toContainText("I have no real model behind me");

  await page.getByRole("listitem", { name: "Your message" }).getByRole("button", { name: "Regenerate" }).click();
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await expect(replies(page)).toHaveCount(1);
  await expect(replies(page)).toContainText("You said: Hello there");

  await replies(page).getByRole("button", { name: "Delete reply" }).click();
  await expect(replies(page)).toHaveCount(0);
  await page.getByRole("button", { name: "Delete your message" }).click();
  await expect(page.getByText("Send a message to start chatting")).toBeVisible();
});

test("New chat clears the conversation after asking, keeps what is typed in the box, and is not offered while a reply comes", async ({ page }) => {
  await signInWithOrganization(page);
  await page.goto("/chat?model=builtin");
  const newChat = page.getByRole("button", { name: "New chat" });
  await expect(newChat).toHaveCount(0);
  await input(page).fill("Hello there");
  await input(page).press("Enter");
  await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  await expect(newChat).toBeDisabled();
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();

  // Cancel (focused first, so Enter cannot clear by surprise) keeps everything.
  await newChat.click();
  const question = page.getByRole("alertdialog", { name: /^Start a new chat\?/ });
  await expect(question.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(question).toBeHidden();
  await expect(replies(page)).toHaveCount(1);

  await input(page).fill("A second thought");
  await newChat.click();
  await question.getByRole("button", { name: "Clear chat" }).click();
  await expect(page.getByRole("list", { name: "Messages" })).toHaveCount(0);
  await expect(page.getByText("Send a message to start chatting")).toBeVisible();
  await expect(input(page)).toBeFocused();
  await expect(input(page)).toHaveValue("A second thought");
  await expect(page.locator('[aria-live="polite"]').filter({ hasText: "New chat started." })).toHaveCount(1);
  await expect(newChat).toHaveCount(0);
});

test("New chat's open question stays, with focus, when a pending retry fires; after a model was removed, Clear chat goes to the picker", async ({ page }) => {
  const { fake, names, remove, dispose } = await fakeModels(["rate-limited", "echo"]);
  try {
    await page.clock.install();
    await signInWithOrganization(page);
    await page.goto(`/chat?model=${names["rate-limited"]}`);
    await page.clock.pauseAt(new Date(Date.now() + 60_000));
    await input(page).fill("Anyone there?");
    await input(page).press("Enter");
    await expect(page.getByText("Retrying in 5s")).toBeVisible();
    await page.getByRole("button", { name: "New chat" }).click();
    const question = page.getByRole("alertdialog", { name: /^Start a new chat\?/ });
    await expect(question.getByRole("button", { name: "Cancel" })).toBeFocused();
    await page.clock.fastForward(5_000);
    await expect.poll(() => fake.requests.length).toBe(2);
    await expect(question.getByRole("button", { name: "Cancel" })).toBeFocused();
    await page.keyboard.press("Enter");
    await page.clock.resume();

    await picker(page).click();
    await page.getByRole("option", { name: new RegExp(`Fake echo ${names.echo.slice(-6)}`) }).click();
    await input(page).fill("Hello");
    await input(page).press("Enter");
    await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
    await remove("echo");
    await input(page).fill("Are you still there?");
    await input(page).press("Enter");
    await expect(page.getByRole("alert")).toHaveText("This model was removed. Choose another model.");
    await page.getByRole("button", { name: "New chat" }).click();
    await question.getByRole("button", { name: "Clear chat" }).click();
    await expect(page.getByRole("list", { name: "Messages" })).toHaveCount(0);
    await expect(picker(page)).toBeFocused();
  } finally {
    await dispose();
  }
});

test("switching organization starts a fresh conversation: nothing of the other organization's is sent to, and paid by, this one", async ({ page }) => {
  const { orgName } = await signInWithOrganization(page, "Chat Switcher");
  await createOrganizationWithRequests(page.request, `Second ${orgName}`);
  await page.goto("/chat?model=builtin");
  await input(page).fill("Hello there");
  await input(page).press("Enter");
  await expect(replies(page)).toContainText("messages in this conversation: 1");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();

  await switchOrganization(page, orgName);
  await expect(page.getByLabel("Active organization").locator("option:checked")).toHaveText(orgName);
  await expect(page.getByText("Send a message to start chatting")).toBeVisible();
  await input(page).fill("Who pays for this?");
  await input(page).press("Enter");
  await expect(replies(page)).toHaveCount(1);
  await expect(replies(page)).toContainText("messages in this conversation: 1");
});

test("a finished reply is announced as the page shows it, not as its Markdown source", async ({ page }) => {
  await signInWithOrganization(page);
  await page.goto("/chat?model=builtin");
  await input(page).fill("Hello there");
  await input(page).press("Enter");
  await expect(announcer(page)).toHaveText(
    "Reply finished: You said: Hello there I am the built-in development model. I answer without an upstream so that a fresh install can chat; configure real models with MODELS_FILE. messages in this conversation: 1",
  );
});

test("deleting a message from the keyboard moves focus to the next message's Delete, else the previous one's, else the message box", async ({ page }) => {
  await signInWithOrganization(page);
  await page.goto("/chat?model=builtin");
  for (const text of ["First", "Second"]) {
    await input(page).fill(text);
    await input(page).press("Enter");
    await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  }
  const yours = page.getByRole("listitem", { name: "Your message" });
  await expect(yours).toHaveCount(2);
  await expect(replies(page)).toHaveCount(2);
  const deleteOf = (item: ReturnType<Page["getByRole"]>) => item.getByRole("button", { name: /^Delete / });

  await deleteOf(yours.first()).focus();
  await page.keyboard.press("Enter");
  await expect(yours).toHaveCount(1);
  await expect(deleteOf(replies(page).first())).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(replies(page)).toHaveCount(1);
  await expect(deleteOf(yours.first())).toBeFocused();

  await deleteOf(replies(page).first()).focus();
  await page.keyboard.press("Enter");
  await expect(replies(page)).toHaveCount(0);
  await expect(deleteOf(yours.first())).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Send a message to start chatting")).toBeVisible();
  await expect(input(page)).toBeFocused();
});

test("a blank message is not sent, and Shift+Enter adds a line", async ({ page }) => {
  await signInWithOrganization(page);
  await page.goto("/chat");
  await expect(page.getByRole("button", { name: "Send" })).toBeDisabled();
  await input(page).fill("   ");
  await input(page).press("Enter");
  await expect(page.getByRole("listitem", { name: "Your message" })).toHaveCount(0);
  await input(page).fill("one");
  await input(page).press("Shift+Enter");
  await input(page).pressSequentially("two");
  await expect(input(page)).toHaveValue("one\ntwo");
});

test("the message box grows with its lines up to 4 rows (SPEC §9)", async ({ page }) => {
  await signInWithOrganization(page);
  await page.goto("/chat");
  await hydrated(page);
  await expect(input(page)).toHaveAttribute("rows", "1");
  await input(page).fill("one\ntwo");
  await expect(input(page)).toHaveAttribute("rows", "2");
  await input(page).fill(["one", "two", "three", "four", "five", "six"].join("\n"));
  await expect(input(page)).toHaveAttribute("rows", "4");
});

/** The keydown an IME sends when Enter or Esc confirms or cancels a composition (Safari: isComposing false, keyCode 229). */
async function imeKey(page: Page, key: "Enter" | "Escape", target: "input" | "window") {
  await page.evaluate(
    ({ key, target }) => {
      const event = new KeyboardEvent("keydown", { key, code: key, keyCode: 229, bubbles: true, cancelable: true, composed: true });
      (target === "input" ? document.getElementById("chat-input")! : window).dispatchEvent(event);
    },
    { key, target },
  );
}

test("Enter or Esc that ends an IME composition (Safari's keyCode 229) neither sends nor stops", async ({ page }) => {
  const { fake, names, dispose } = await fakeModels(["slow"]);
  fake.slowDelayMs = 2_000;
  try {
    await signInWithOrganization(page);
    await page.goto(`/chat?model=${names.slow}`);
    await input(page).fill("こんにちは");
    await imeKey(page, "Enter", "input");
    await page.waitForTimeout(300);
    await expect(page.getByRole("listitem", { name: "Your message" })).toHaveCount(0);
    await expect(input(page)).toHaveValue("こんにちは");

    await input(page).press("Enter");
    await expect(page.getByRole("listitem", { name: "Your message" })).toHaveCount(1);
    await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
    await imeKey(page, "Escape", "window");
    await page.waitForTimeout(300);
    await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
    await expect(replies(page)).not.toContainText("Stopped.");
    await page.keyboard.press("Escape");
    await expect(replies(page)).toContainText("Stopped.");
  } finally {
    await dispose();
  }
});

test("while a reply is awaited, the wait is named to a screen reader, axe finds nothing serious, and the dots stand still when less motion is asked", async ({
  page,
}) => {
  // The model starts its answer at once and sends its first word much later: the wait is what is looked at.
  const { fake, names, dispose } = await fakeModels(["thinks-first"]);
  fake.firstTokenDelayMs = 20_000;
  try {
    await signInWithOrganization(page);
    await page.goto(`/chat?model=${names["thinks-first"]}`);
    await input(page).fill("Hello");
    await input(page).press("Enter");
    const waiting = replies(page).getByRole("img", { name: "Waiting for the reply" });
    await expect(waiting).toBeVisible();
    const results = await new AxeBuilder({ page }).include("main").withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
    const animated = () => waiting.evaluate((el) => getComputedStyle(el).maskImage.includes("animate"));
    expect(await animated()).toBe(true);
    await page.emulateMedia({ reducedMotion: "reduce" });
    expect(await animated()).toBe(false);
    await page.getByRole("button", { name: "Stop" }).click();
  } finally {
    await dispose();
  }
});

/** Answers the chat's next send with this reply, whole, in the platform's stream format. */
async function replyOnce(page: Page, content: string, finish = "stop") {
  const chunk = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
  await page.route(
    "**/resources/chat",
    (route) =>
      route.fulfill({
        status: 200,
        headers: { "content-type": "text/event-stream" },
        body:
          chunk({ choices: [{ index: 0, delta: { content }, finish_reason: null }] }) +
          chunk({ choices: [{ index: 0, delta: {}, finish_reason: finish }] }) +
          "data: [DONE]\n\n",
      }),
    { times: 1 },
  );
}

test("a streaming reply is followed only while the list is at its bottom: scrolled up to read, it stays put, and the page never scrolls", async ({ page }) => {
  const { fake, names, dispose } = await fakeModels(["slow", "long"]);
  fake.slowDelayMs = 1_500;
  const scroller = page.locator("div:has(> ol[aria-label='Messages'])");
  const gap = () => scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
  try {
    await page.setViewportSize({ width: 800, height: 600 });
    await signInWithOrganization(page);
    await page.goto(`/chat?model=${names.slow}`);
    await replyOnce(page, Array.from({ length: 60 }, (_, i) => `Line ${i + 1}.`).join("\n\n"));
    await input(page).fill("Fill the list");
    await input(page).press("Enter");
    await expect(replies(page)).toContainText("Line 60.");
    await expect.poll(gap).toBeLessThanOrEqual(1);

    await input(page).fill("Take your time");
    await input(page).press("Enter");
    await expect(replies(page).last()).toContainText("Hello");
    await expect.poll(gap).toBeLessThanOrEqual(1);
    await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
    await expect(replies(page).last()).toContainText("Hello from the fake");
    expect(await scroller.evaluate((el) => el.scrollTop)).toBe(0);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
    expect(await scroller.evaluate((el) => el.scrollTop)).toBe(0);

    // Back at the bottom, a long reply is followed as it grows.
    await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await picker(page).click();
    await page.getByRole("option", { name: new RegExp(`Fake long ${names.long.slice(-6)}`) }).click();
    await input(page).fill("Go long");
    await input(page).press("Enter");
    await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
    await expect(replies(page)).toHaveCount(3);
    await expect.poll(gap).toBeLessThanOrEqual(1);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  } finally {
    await dispose();
  }
});

/**
 * Streams the chat's next reply from the page itself, one piece every `everyMs`, the pieces over and
 * over, until `endStream(page)`: a steady stream of small tokens, as a fast model sends, which the fake
 * upstream's models do not pace. It lasts as long as the test needs, however slow the machine.
 */
async function streamInPage(page: Page, pieces: string[], everyMs: number) {
  await page.evaluate(
    ({ pieces, everyMs }) => {
      const original = window.fetch;
      window.fetch = (input, init) => {
        if (String(input) !== "/resources/chat") return original(input, init);
        window.fetch = original;
        const encoder = new TextEncoder();
        const line = (payload: unknown) => encoder.encode(`data: ${JSON.stringify(payload)}\n\n`);
        let timer: number | undefined;
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            let next = 0;
            (window as unknown as { endStream: () => void }).endStream = () => {
              window.clearInterval(timer);
              controller.enqueue(encoder.encode("data: [DONE]\n\n"));
              controller.close();
            };
            timer = window.setInterval(
              () => controller.enqueue(line({ choices: [{ index: 0, delta: { content: pieces[next++ % pieces.length] }, finish_reason: null }] })),
              everyMs,
            );
          },
          cancel: () => window.clearInterval(timer),
        });
        return Promise.resolve(new Response(body, { headers: { "content-type": "text/event-stream" } }));
      };
    },
    { pieces, everyMs },
  );
}

/** Ends the reply `streamInPage` streams. */
const endStream = (page: Page) => page.evaluate(() => (window as unknown as { endStream: () => void }).endStream());

test("a trackpad's small steps up (60 of 8 px) stop following a streaming reply; scrolling back to the bottom follows it again", async ({ page }) => {
  const scroller = page.locator("div:has(> ol[aria-label='Messages'])");
  const gap = () => scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
  await page.setViewportSize({ width: 800, height: 600 });
  await signInWithOrganization(page);
  await page.goto("/chat");
  await replyOnce(page, Array.from({ length: 60 }, (_, i) => `Line ${i + 1}.`).join("\n\n"));
  await input(page).fill("Fill the list");
  await input(page).press("Enter");
  await expect(replies(page)).toContainText("Line 60.");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();

  // Tokens 20 ms apart until the test ends the reply, a new paragraph every tenth: the list grows under the scrolling.
  await streamInPage(
    page,
    Array.from({ length: 10 }, (_, i) => (i === 9 ? " word.\n\n" : " word")),
    20,
  );
  await input(page).fill("Keep talking");
  await input(page).press("Enter");
  await expect(replies(page).last()).toContainText("word word");
  await expect.poll(gap).toBeLessThanOrEqual(1);
  const box = (await scroller.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let step = 0; step < 60; step++) {
    await page.mouse.wheel(0, -8);
    await page.waitForTimeout(16);
  }
  await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  await page.waitForTimeout(300); // more tokens come; none takes the list back down
  expect(await gap()).toBeGreaterThan(200);

  await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await page.waitForTimeout(300); // followed again: the tokens that come take the list down with them
  await expect.poll(gap).toBeLessThanOrEqual(1);
  await endStream(page);
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await expect(replies(page).last()).toContainText("word.");
  await expect.poll(gap).toBeLessThanOrEqual(1);
});

test("a reply cut at its length limit says so under it and in the announcement", async ({ page }) => {
  await signInWithOrganization(page);
  await page.goto("/chat");
  await replyOnce(page, "The first half of a long answer", "length");
  await input(page).fill("Tell me everything");
  await input(page).press("Enter");
  await expect(replies(page)).toContainText("The first half of a long answer");
  await expect(replies(page)).toContainText("The reply stopped at its length limit.");
  await expect(announcer(page)).toHaveText("Reply stopped at its length limit: The first half of a long answer");

  await replyOnce(page, "A whole answer.");
  await input(page).fill("Short, please");
  await input(page).press("Enter");
  await expect(replies(page).last()).toContainText("A whole answer.");
  await expect(replies(page).last()).not.toContainText("length limit");
  await expect(announcer(page)).toHaveText("Reply finished: A whole answer.");
});

test("a reply's wide table scrolls sideways inside its bubble on a phone, and the page does not", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signInWithOrganization(page);
  await page.goto("/chat");
  const header = "| Model | Provider | Context | Throughput | Latency | Price in | Price out | Notes |";
  const row = "| qwen-7b-instruct | example-provider | 32768 | 120 tokens/s | 350 ms | $0.10 | $0.20 | general purpose |";
  await replyOnce(page, `Compare:\n\n${header}\n|---|---|---|---|---|---|---|---|\n${row}\n\n~~old~~ see https://example.com`);
  await input(page).fill("Compare them");
  await input(page).press("Enter");
  const table = replies(page).getByRole("table");
  await expect(table).toContainText("Throughput");
  await expect(replies(page).locator("del")).toHaveText("old");
  await expect(replies(page).getByRole("link", { name: "https://example.com" })).toBeVisible();
  const box = table.locator("xpath=..");
  const [scrollWidth, clientWidth] = await box.evaluate((el) => [el.scrollWidth, el.clientWidth]);
  expect(scrollWidth).toBeGreaterThan(clientWidth);
  const bubble = (await replies(page).locator(".chat-bubble").boundingBox())!;
  expect(bubble.x + bubble.width).toBeLessThanOrEqual(375);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});

test("while a reply streams, only that reply renders again: the messages before it are left alone", async ({ page }) => {
  const { fake, names, dispose } = await fakeModels(["slow"]);
  fake.slowDelayMs = 600;
  // React reports each commit to a DevTools hook: count, per message, the commits in which its view rendered
  // (a view skipped by memo keeps the props object of its previous render).
  await page.addInitScript(() => {
    type Fiber = { child: Fiber | null; sibling: Fiber | null; alternate: Fiber | null; memoizedProps: unknown };
    const w = window as unknown as { renders: Record<string, number>; __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown };
    w.renders = {};
    w.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
      supportsFiber: true,
      renderers: new Map(),
      inject: () => 1,
      checkDCE: () => {},
      onScheduleFiberRoot: () => {},
      onCommitFiberUnmount: () => {},
      onPostCommitFiberRoot: () => {},
      onCommitFiberRoot: (_id: number, root: { current: Fiber }) => {
        const stack: Fiber[] = [root.current];
        while (stack.length) {
          const fiber = stack.pop()!;
          const props = fiber.memoizedProps as { message?: { id?: string }; onDelete?: unknown } | null;
          if (props?.message?.id && typeof props.onDelete === "function" && fiber.alternate && fiber.alternate.memoizedProps !== props) {
            w.renders[props.message.id] = (w.renders[props.message.id] ?? 0) + 1;
          }
          if (fiber.child) stack.push(fiber.child);
          if (fiber.sibling) stack.push(fiber.sibling);
        }
      },
    };
  });
  try {
    await signInWithOrganization(page);
    await page.goto(`/chat?model=${names.slow}`);
    await replyOnce(page, "An earlier answer with a **bold** word and `code`.");
    await input(page).fill("First");
    await input(page).press("Enter");
    await expect(replies(page)).toContainText("An earlier answer");
    await expect(page.getByRole("button", { name: "Send" })).toBeVisible();

    // Pieces far enough apart that the reply still streams when its renders are read, on a busy machine too.
    fake.slowDelayMs = 2_000;
    await input(page).fill("Second");
    await input(page).press("Enter");
    await expect(replies(page).last()).toContainText("Hello");
    await page.evaluate(() => ((window as unknown as { renders: Record<string, number> }).renders = {}));
    await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
    await expect(replies(page).last()).toContainText("Hello from the");
    const renders = await page.evaluate(() => (window as unknown as { renders: Record<string, number> }).renders);
    const ids = await page.locator("li[data-message-id]").evaluateAll((items) => items.map((li) => li.getAttribute("data-message-id")!));
    expect(ids).toHaveLength(4);
    expect(renders[ids[3]]).toBeGreaterThanOrEqual(2);
    expect(ids.slice(0, 3).map((id) => renders[id] ?? 0)).toEqual([0, 0, 0]);
  } finally {
    await dispose();
  }
});

test("a long unbroken line (a URL) wraps inside its bubble, on a phone too", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signInWithOrganization(page);
  await page.goto("/chat");
  await input(page).fill(`Check this: https://example.com/a/very/long/url/${"segment".repeat(40)}`);
  await input(page).press("Enter");
  const bubble = page.getByRole("listitem", { name: "Your message" }).locator(".chat-bubble");
  await expect(bubble).toContainText("segmentsegment");
  // The text's own box: wider than it is when a word runs out of the bubble (the bubble's tail overhangs by design).
  const [scrollWidth, clientWidth] = await bubble.locator("p").evaluate((el) => [el.scrollWidth, el.clientWidth]);
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  const box = (await bubble.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(375);
});

test("Stop aborts the reply all the way to the upstream", async ({ page }) => {
  const { fake, names, dispose } = await fakeModels(["hang"]);
  try {
    await signInWithOrganization(page);
    await page.goto(`/chat?model=${names.hang}`);
    await input(page).fill("Wait for it");
    await input(page).press("Enter");
    await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
    await expect.poll(() => fake.requests.length).toBe(1);
    const closed = fake.nextClose();
    await page.getByRole("button", { name: "Stop" }).click();
    await closed;
    await expect(replies(page)).toContainText("Stopped.");
    await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  } finally {
    await dispose();
  }
});

test("Stop pressed while a refusal's body is still arriving stops for good: no retry is armed", async ({ page }) => {
  const { names, dispose } = await fakeModels(["hang"]);
  try {
    // A 429 whose body comes slowly (a proxy's, a congested link): its headers are in, its body is not,
    // and it breaks off when the request is aborted, as a browser's fetch body does.
    await page.addInitScript(() => {
      const real = window.fetch.bind(window);
      const counted = window as unknown as { chatSends: number };
      counted.chatSends = 0;
      window.fetch = async (input, init) => {
        const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
        if (!url.endsWith("/resources/chat") || init?.method !== "POST") return real(input, init);
        counted.chatSends += 1;
        const signal = init.signal;
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            signal?.addEventListener("abort", () => controller.error(new DOMException("The user aborted a request.", "AbortError")));
          },
        });
        return new Response(body, { status: 429, statusText: "Too Many Requests", headers: { "content-type": "application/json" } });
      };
    });
    await page.clock.install();
    await signInWithOrganization(page);
    await page.goto(`/chat?model=${names.hang}`);
    await page.clock.pauseAt(new Date(Date.now() + 60_000));
    await input(page).fill("Anyone there?");
    await input(page).press("Enter");
    await page.getByRole("button", { name: "Stop" }).click();
    await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
    await expect(page.getByText(/Retrying in/)).toHaveCount(0);
    await page.clock.fastForward(10_000);
    await expect(page.getByText(/Retrying in/)).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { chatSends: number }).chatSends)).toBe(1);
    await expect(page.getByRole("listitem", { name: "Your message" })).toContainText("Anyone there?");
  } finally {
    await dispose();
  }
});

test("a reply the model broke off says so in the server's words, and a message after a failed one still reaches the model", async ({ page }) => {
  const { fake, names, dispose } = await fakeModels(["mid-error", "server-error"]);
  try {
    await signInWithOrganization(page);
    await page.goto(`/chat?model=${names["mid-error"]}`);
    await input(page).fill("Start, then fail");
    await input(page).press("Enter");
    await expect(page.getByRole("alert")).toContainText(`The model '${names["mid-error"]}' broke off its answer before it was complete. Try again.`);

    // Two sends to a model that fails before answering: the second carries the first with it, since
    // models whose template wants roles to alternate refuse two user turns in a row.
    await page.goto(`/chat?model=${names["server-error"]}`);
    await input(page).fill("First");
    await input(page).press("Enter");
    await expect(page.getByRole("alert")).toContainText(`The model '${names["server-error"]}' failed to answer (its provider answered 500). Try again.`);
    await input(page).fill("Second");
    await input(page).press("Enter");
    await expect.poll(() => fake.requests.length).toBe(3);
    const messages = (fake.requests[2].body as unknown as { messages: { role: string; content: string }[] }).messages;
    expect(messages).toEqual([{ role: "user", content: "First\n\nSecond" }]);
  } finally {
    await dispose();
  }
});

test("Stop gives focus back to the message box, and a screen reader hears the reply stopped with what had come", async ({ page }) => {
  const { fake, names, dispose } = await fakeModels(["slow"]);
  fake.slowDelayMs = 1_000;
  try {
    await signInWithOrganization(page);
    await page.goto(`/chat?model=${names.slow}`);
    await input(page).fill("Take your time");
    await input(page).press("Enter");
    await expect(replies(page)).toContainText("Hello");
    await input(page).press("Tab");
    await expect(page.getByRole("button", { name: "Stop" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(replies(page)).toContainText("Stopped.");
    await expect(input(page)).toBeFocused();
    await expect(announcer(page)).toHaveText(/^Reply stopped: Hello/);
  } finally {
    await dispose();
  }
});

test("the same announcement twice is said twice: a second 'Reply stopped' is a new node in the live region", async ({ page }) => {
  const { fake, names, dispose } = await fakeModels(["hang"]);
  try {
    await signInWithOrganization(page);
    await page.goto(`/chat?model=${names.hang}`);
    await input(page).fill("One");
    await input(page).press("Enter");
    await expect.poll(() => fake.requests.length).toBe(1);
    await page.getByRole("button", { name: "Stop" }).click();
    await expect(announcer(page)).toHaveText("Reply stopped");
    // What a screen reader reacts to: nodes added to the region (the same text set again changes nothing).
    await announcer(page).evaluate((region) => {
      const w = window as unknown as { added: number };
      w.added = 0;
      new MutationObserver((records) => {
        for (const r of records) w.added += r.addedNodes.length;
      }).observe(region, { childList: true, subtree: true, characterData: true });
    });
    await input(page).fill("Two");
    await input(page).press("Enter");
    await expect.poll(() => fake.requests.length).toBe(2);
    await page.getByRole("button", { name: "Stop" }).click();
    await expect(replies(page)).toHaveCount(2);
    await expect(replies(page).last()).toContainText("Stopped.");
    await expect(announcer(page)).toHaveText("Reply stopped");
    await expect.poll(() => page.evaluate(() => (window as unknown as { added: number }).added)).toBeGreaterThan(0);
  } finally {
    await dispose();
  }
});

test("a reply that ends while Stop has focus leaves focus in the message box, and is announced", async ({ page }) => {
  const { fake, names, dispose } = await fakeModels(["gated"]);
  try {
    await signInWithOrganization(page);
    await page.goto(`/chat?model=${names.gated}`);
    await input(page).fill("Go on");
    await input(page).press("Enter");
    await input(page).press("Tab");
    await expect(page.getByRole("button", { name: "Stop" })).toBeFocused();
    // The reply ends only now, with Stop surely focused (a timed reply could end first on a busy machine).
    fake.release();
    await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
    await expect(input(page)).toBeFocused();
    await expect(announcer(page)).toHaveText("Reply finished: Hello from the fake upstream.");
  } finally {
    await dispose();
  }
});

test("the model picker is named once, by its label and what it shows, and says each status in a word", async ({ page }) => {
  await signInWithOrganization(page);
  await page.goto("/chat");
  const button = page.getByRole("button", { name: /^Model Built-in development model Online TTFT (no data|\d+ ms)$/ });
  await expect(button).toBeVisible();
  await expect(button.getByText("Online", { exact: true })).toBeVisible();
  await button.click();
  const option = page.getByRole("option", { name: /^Built-in development model builtin Online TTFT (no data|\d+ ms)$/ });
  await expect(option).toBeVisible();
  await expect(option.getByText("Online", { exact: true })).toBeVisible();
});

test("the model picker works from the keyboard: one Tab stop, arrows, Home and End, and focus back on its button", async ({ page }) => {
  const { names, dispose } = await fakeModels(["echo", "slow"]);
  try {
    await signInWithOrganization(page);
    await page.goto("/chat?model=builtin");
    await picker(page).focus();
    await page.keyboard.press("Enter");
    const listbox = page.getByRole("listbox", { name: "Models" });
    const options = listbox.getByRole("option");
    const tabStops = () => options.evaluateAll((all) => all.filter((o) => (o as HTMLElement).tabIndex === 0).length);
    await expect(listbox.getByRole("option", { selected: true })).toBeFocused();
    expect(await tabStops()).toBe(1);
    await page.keyboard.press("End");
    await expect(options.last()).toBeFocused();
    await page.keyboard.press("Home");
    await expect(options.first()).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(options.nth(1)).toBeFocused();
    expect(await tabStops()).toBe(1);

    // Escape closes it and gives focus back to the button.
    await page.keyboard.press("Escape");
    await expect(listbox).toHaveCount(0);
    await expect(picker(page)).toBeFocused();
    await expect(picker(page)).toHaveAttribute("aria-expanded", "false");

    // Tab leaves it, closed, for the next control (one Tab stop, not one per model).
    await page.keyboard.press("Enter");
    await expect(listbox).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(listbox).toHaveCount(0);
    await expect(page.getByRole("link", { name: "API examples" })).toBeFocused();

    // Shift+Tab goes back to the button, closed too.
    await picker(page).press("Enter");
    await expect(listbox).toBeVisible();
    await page.keyboard.press("Shift+Tab");
    await expect(listbox).toHaveCount(0);
    await expect(picker(page)).toBeFocused();

    // A choice closes it, focus on the button that now names the model chosen.
    await page.keyboard.press("Enter");
    await listbox.getByRole("option", { name: new RegExp(`Fake echo ${names.echo.slice(-6)}`) }).press("Enter");
    await expect(listbox).toHaveCount(0);
    await expect(picker(page)).toBeFocused();
    await expect(picker(page)).toHaveAccessibleName(new RegExp(`^Model Fake echo ${names.echo.slice(-6)} Online`));
  } finally {
    await dispose();
  }
});

test("the 503 notice counts down from 30 s and retries by itself", async ({ page }) => {
  const { names, dispose } = await fakeModels(["warming-once"]);
  try {
    await page.clock.install();
    await signInWithOrganization(page);
    await page.goto(`/chat?model=${names["warming-once"]}`);
    // Stop the page's clock: from here on, seconds pass only when the test says so.
    await page.clock.pauseAt(new Date(Date.now() + 60_000));
    await input(page).fill("Are you awake?");
    await input(page).press("Enter");
    await expect(page.getByText("Model is warming up. This usually takes a few minutes for the first request.")).toBeVisible();
    await expect(page.getByText("Retrying in 30s")).toBeVisible();
    await page.clock.fastForward(10_000);
    await expect(page.getByText("Retrying in 20s")).toBeVisible();
    await page.clock.fastForward(20_000);
    await expect(replies(page)).toContainText("Hello from the fake upstream.");
    await expect(page.getByText(/Retrying in/)).toHaveCount(0);
  } finally {
    await dispose();
  }
});

test("a rate limit is retried five times, then the error stays with a Retry that starts again", async ({ page }) => {
  const { fake, names, dispose } = await fakeModels(["rate-limited"]);
  try {
    await page.clock.install();
    await signInWithOrganization(page);
    await page.goto(`/chat?model=${names["rate-limited"]}`);
    await page.clock.pauseAt(new Date(Date.now() + 60_000));
    await input(page).fill("Anyone there?");
    await input(page).press("Enter");
    for (let sent = 1; sent <= 5; sent++) {
      await expect.poll(() => fake.requests.length).toBe(sent);
      await expect(page.getByText("Rate limit exceeded. Please wait a moment.")).toBeVisible();
      await expect(page.getByText("Retrying in 5s")).toBeVisible();
      await page.clock.fastForward(5_000);
    }
    await expect.poll(() => fake.requests.length).toBe(6);
    const error = page.getByRole("alert").filter({ hasText: "Too many requests" });
    await expect(error).toBeVisible();
    await expect(page.getByText(/Retrying in/)).toHaveCount(0);
    await page.clock.fastForward(60_000);
    expect(fake.requests.length).toBe(6);
    await page.clock.resume();
    expect(await footerViolations(page)).toEqual([]);

    await error.getByRole("button", { name: "Retry" }).click();
    await expect.poll(() => fake.requests.length).toBe(7);
    await expect(page.getByText("Retrying in 5s")).toBeVisible();
    await expect(page.getByRole("listitem", { name: "Your message" })).toHaveCount(1);
  } finally {
    await dispose();
  }
});

test("a pending retry stops on Cancel (from the keyboard), on another message, on a deleted message and when the page is left", async ({ page }) => {
  const { fake, names, dispose } = await fakeModels(["rate-limited"]);
  const notice = page.getByText("Rate limit exceeded. Please wait a moment.");
  try {
    await page.clock.install();
    await signInWithOrganization(page);
    await page.goto(`/chat?model=${names["rate-limited"]}`);
    await page.clock.pauseAt(new Date(Date.now() + 60_000));
    await input(page).fill("First");
    await input(page).press("Enter");
    await expect(notice).toBeVisible();

    // Cancel is the control before the message box; afterwards focus is back in the box.
    await input(page).press("Shift+Tab");
    const cancel = page.getByRole("button", { name: "Cancel retry", exact: true });
    await expect(cancel).toBeFocused();
    expect(await visibleText(cancel)).toBe("Cancel");
    await page.keyboard.press("Enter");
    await expect(notice).toHaveCount(0);
    await expect(input(page)).toBeFocused();
    await expect(page.locator('[aria-live="polite"]').filter({ hasText: "Retry cancelled." })).toHaveCount(1);
    await page.clock.fastForward(30_000);
    expect(fake.requests.length).toBe(1);

    // Another message replaces the pending retry: one request for it, not two.
    await input(page).fill("Second");
    await input(page).press("Enter");
    await expect.poll(() => fake.requests.length).toBe(2);
    await expect(notice).toBeVisible();
    await input(page).fill("Third");
    await input(page).press("Enter");
    await expect.poll(() => fake.requests.length).toBe(3);
    await expect(notice).toBeVisible();
    await page.clock.fastForward(5_000);
    await expect.poll(() => fake.requests.length).toBe(4);
    await expect(notice).toBeVisible();

    // Deleting a message drops the retry that would have sent it.
    await page.getByRole("listitem", { name: "Your message" }).last().getByRole("button", { name: "Delete your message" }).click();
    await expect(notice).toHaveCount(0);
    await page.clock.fastForward(30_000);
    expect(fake.requests.length).toBe(4);

    // Leaving the page (a client-side navigation) drops it too.
    await input(page).fill("Fourth");
    await input(page).press("Enter");
    await expect.poll(() => fake.requests.length).toBe(5);
    await expect(notice).toBeVisible();
    await page.getByRole("link", { name: "Models", exact: true }).first().click();
    await expect(page).toHaveURL(/\/models$/);
    await page.clock.fastForward(30_000);
    await page.waitForTimeout(500);
    expect(fake.requests.length).toBe(5);
  } finally {
    await dispose();
  }
});

test("a model deleted while the chat is open: the chat says so, drops it from the picker and keeps the message typed", async ({ page }) => {
  const { names, remove, dispose } = await fakeModels(["echo"]);
  try {
    await signInWithOrganization(page);
    await page.goto(`/chat?model=${names.echo}`);
    await expect(picker(page)).toHaveAccessibleName(new RegExp(`^Model Fake echo ${names.echo.slice(-6)}`));
    await remove("echo");
    await input(page).fill("Are you still there?");
    await input(page).press("Enter");
    await expect(page.getByRole("alert")).toHaveText("This model was removed. Choose another model.");
    await expect(picker(page)).toBeFocused();
    await expect(picker(page)).toHaveAccessibleName(/^Model Select a model/);
    await expect(input(page)).toHaveValue("Are you still there?");
    await expect(page.getByRole("listitem", { name: "Your message" })).toHaveCount(0);
    expect(await footerViolations(page)).toEqual([]);

    await page.keyboard.press("Enter");
    const listbox = page.getByRole("listbox", { name: "Models" });
    await expect(listbox.getByRole("option", { name: /Built-in development model/ })).toBeVisible();
    await expect(listbox.getByRole("option", { name: new RegExp(`Fake echo ${names.echo.slice(-6)}`) })).toHaveCount(0);
    await listbox.getByRole("option", { name: /Built-in development model/ }).click();
    await expect(page.getByRole("alert")).toHaveCount(0);
    await input(page).press("Enter");
    await expect(replies(page)).toContainText("You said: Are you still there?");
  } finally {
    await dispose();
  }
});

test("a model slow to its first token: after 5 s the chat says it is waiting, politely, with Stop beside it", async ({ page }) => {
  const { fake, names, dispose } = await fakeModels(["slow-first", "hang"]);
  const waiting = page.getByRole("status").filter({ hasText: "Waiting for the model… It has not started to answer yet. Stop ends the wait." });
  try {
    await page.clock.install();
    await signInWithOrganization(page);
    await page.goto(`/chat?model=${names["slow-first"]}`);
    await page.clock.pauseAt(new Date(Date.now() + 60_000));

    // No headers yet: the wait is said after 5 s, and goes with the first token.
    fake.firstTokenDelayMs = 8_000;
    await input(page).fill("Take your time");
    await input(page).press("Enter");
    await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
    await page.clock.fastForward(4_900);
    await expect(waiting).toHaveCount(0);
    await page.clock.fastForward(200);
    await expect(waiting).toBeVisible();
    await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
    await expect(replies(page)).toContainText("Hello from the fake upstream.");
    await expect(waiting).toHaveCount(0);

    // Headers and an empty first chunk, then nothing: still waiting; Stop ends it and focus goes to the box.
    await page.getByRole("button", { name: /^Model / }).click();
    await page.getByRole("option", { name: new RegExp(`Fake hang ${names.hang.slice(-6)}`) }).click();
    await input(page).fill("Hello?");
    await input(page).press("Enter");
    await expect.poll(() => fake.requests.length).toBe(2);
    await page.clock.fastForward(5_000);
    await expect(waiting).toBeVisible();
    await page.clock.resume();
    expect(await footerViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Stop" }).click();
    await expect(waiting).toHaveCount(0);
    await expect(input(page)).toBeFocused();
  } finally {
    await dispose();
  }
});

test("a reply whose connection goes silent, not even a keep-alive for 45 s, ends as broken off instead of streaming for ever", async ({ page }) => {
  const { names, dispose } = await fakeModels(["hang"]);
  try {
    await page.clock.install();
    await signInWithOrganization(page);
    await page.goto(`/chat?model=${names.hang}`);
    // The browser's clock runs ahead of the server's keep-alives (every 15 s of real time): to the page,
    // the connection is silent, as one lost without a FIN.
    await page.clock.pauseAt(new Date(Date.now() + 60_000));
    await input(page).fill("Are you there?");
    await input(page).press("Enter");
    await expect(replies(page)).toHaveCount(1);
    await page.clock.fastForward(44_000);
    await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
    await page.clock.fastForward(1_000);
    await expect(replies(page)).toContainText("The reply broke off.");
    await expect(page.getByRole("alert")).toContainText("Failed to send message");
    await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
  } finally {
    await dispose();
  }
});

test("the API examples dialog copies its snippet, which runs as shown with a real token", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signInWithOrganization(page);
  await page.goto("/chat");
  await page.getByRole("link", { name: "API examples" }).click();
  const dialog = page.getByRole("dialog", { name: "API examples" });
  await expect(dialog).toBeVisible();
  const snippet = dialog.getByTestId("api-snippet");
  await expect(snippet).toContainText("/openai/v1/chat/completions");
  await expect(snippet).toContainText("Bearer {key}");
  await expect(snippet).toContainText('"builtin"');
  await dialog.getByRole("button", { name: "Copy cURL" }).click();
  await expect(dialog.getByRole("button", { name: "Copied!" })).toBeVisible();
  // Each language has its own button: cURL's "Copied!" (2 s) does not move to Python's, read at once, not waited out.
  await dialog.getByRole("tab", { name: "Python" }).click();
  expect(await dialog.getByRole("tabpanel").getByRole("button").innerText()).toBe("Copy Python");
  await dialog.getByRole("tab", { name: "cURL" }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await snippet.textContent());

  const created = await page.request.post("/api/v1/tokens", { data: { scopes: ["chat"], expiresAt: null } });
  expect(created.ok()).toBe(true);
  const { token } = (await created.json()) as { token: string };
  const curl = execFileSync("bash", ["-c", copied.replace("{key}", token)], { encoding: "utf8" });
  expect(curl).toContain("data: [DONE]");

  for (const [tab, run] of [
    ["JavaScript", (file: string) => execFileSync(process.execPath, [file], { encoding: "utf8" })],
    ["Python", (file: string) => execFileSync("python3", [file], { encoding: "utf8" })],
  ] as const) {
    await dialog.getByRole("tab", { name: tab }).click();
    const code = (await snippet.textContent())!;
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "snippet-")), tab === "Python" ? "chat.py" : "chat.mjs");
    fs.writeFileSync(file, code.replace("{key}", token));
    expect(run(file)).toContain("I am the built-in development model");
  }
});
