import { randomUUID } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { OPERATOR, signInWithRequests } from "./auth";

/** A page of its own for the operator (the system organization's admin), beside the test's page. */
export async function operatorPage(browser: Browser, baseURL: string, options: { javaScriptEnabled?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ baseURL, ...options });
  await context.addCookies([{ name: "CH-time-zone", value: "UTC", url: baseURL }]);
  const page = await context.newPage();
  await signInWithRequests(page.request, OPERATOR);
  return page;
}

/** A model name nobody else in the run uses (tests share one registry). */
export function uniqueModelName(prefix = "e2e-editor"): string {
  return `${prefix}-${randomUUID().slice(0, 6)}`;
}
