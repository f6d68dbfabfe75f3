import { test as base } from "@playwright/test";

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

export { expect } from "@playwright/test";
