import type { Page } from "@playwright/test";
import { expect } from "./test";

/** Sends one message to the built-in model on /chat and waits for its whole reply (metering runs as it ends). */
export async function chatOnceWithBuiltin(page: Page, text: string) {
  await page.goto("/chat?model=builtin");
  await expect(page.getByRole("button", { name: /^Model Built-in development model/ })).toBeVisible();
  const input = page.getByRole("textbox", { name: "Message" });
  await input.fill(text);
  await input.press("Enter");
  await expect(page.getByRole("listitem", { name: "Assistant message" })).toContainText(`You said: ${text}`);
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
}

/** The value of a stat card on /usage ("Requests", "Tokens", "Cost"), as a locator of its exact text. */
export function statValue(page: Page, title: string, value: string) {
  return page.getByRole("group", { name: title }).getByText(value, { exact: true });
}
