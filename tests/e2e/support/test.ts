import type { Locator, Page } from "@playwright/test";
import { expect, test as base } from "@playwright/test";

/**
 * Playwright's test with the time-zone client hint already set, so the first visit doesn't reload the
 * page to send it (the browser runs in UTC, see playwright.config.ts).
 */
export const test = base.extend({
  context: async ({ context, baseURL }, use) => {
    await context.addCookies([{ name: "CH-time-zone", value: "UTC", url: baseURL! }]);
    await use(context);
  },
});

export { expect };

/**
 * Waits until React has hydrated the console's page: what the server rendered is there before, and a
 * timer or a listener armed by an effect would not count yet on a loaded machine.
 */
export async function hydrated(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(() => Object.keys(document.getElementById("main") ?? document.querySelector("main") ?? {}).some((key) => key.startsWith("__reactFiber"))),
    )
    .toBe(true);
}

/** What a control shows on screen: its text without the visually hidden part that completes its name. */
export async function visibleText(control: Locator): Promise<string> {
  return control.evaluate((element) => {
    const clone = element.cloneNode(true) as HTMLElement;
    for (const hidden of clone.querySelectorAll(".sr-only")) hidden.remove();
    return (clone.textContent ?? "").replace(/\s+/g, " ").trim();
  });
}
