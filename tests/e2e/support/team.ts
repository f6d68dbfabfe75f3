import { randomUUID } from "node:crypto";
import type { APIRequestContext, Browser, BrowserContextOptions, Page } from "@playwright/test";
import type { Person } from "./auth";
import { newPerson, signInWithOrganization, signInWithRequests } from "./auth";
import { writeDatabase } from "./billing";
import { expect } from "./test";

/** A fresh browser context with the time-zone hint set (as the shared fixture does) and a signed-in person. */
export async function signedInPage(browser: Browser, baseURL: string, person: Person, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ ...options, baseURL });
  await context.addCookies([{ name: "CH-time-zone", value: "UTC", url: baseURL }]);
  const page = await context.newPage();
  await signInWithRequests(page.request, person);
  return page;
}

/** An invite code of the signed-in admin's active organization, through the platform API. */
export async function inviteWithRequests(request: APIRequestContext, kind: "single-use" | "multi-use" = "single-use"): Promise<string> {
  const response = await request.post("/api/v1/organizations/invites", { data: { status: kind } });
  if (!response.ok()) throw new Error(`invite answered ${response.status()}`);
  return ((await response.json()) as { code: string }).code;
}

export async function joinWithRequests(request: APIRequestContext, code: string): Promise<void> {
  const response = await request.post(`/api/v1/auth/join/${code}`);
  if (!response.ok()) throw new Error(`join answered ${response.status()}`);
}

/**
 * An organization whose admin is signed in on `page`, and a second person who joined it as a member,
 * signed in on a page of their own.
 */
export async function organizationWithMember(page: Page, browser: Browser, baseURL: string, memberOptions: BrowserContextOptions = {}) {
  const admin = await signInWithOrganization(page);
  const person = newPerson("Member");
  const memberPage = await signedInPage(browser, baseURL, person, memberOptions);
  await joinWithRequests(memberPage.request, await inviteWithRequests(page.request));
  return { admin, member: { person, page: memberPage } };
}

/**
 * Switches the active organization with the sidebar's select once the page is hydrated (before that the
 * select only posts with its Switch button, and a change made then is reset by hydration: a heavy page
 * hydrates late on a loaded machine), and waits until the switch has been answered (the select shows the
 * choice at once).
 */
export async function switchOrganization(page: Page, label: string) {
  await expect(page.getByRole("complementary", { name: "Sidebar" }).getByRole("button", { name: "Switch" })).toHaveCount(0);
  const answered = page.waitForResponse((r) => r.url().includes("/switch-organization") && r.request().method() === "POST");
  await page.getByLabel("Active organization").selectOption({ label });
  await answered;
}

/**
 * `count` people who joined the organization after its admin, one millisecond apart, straight into
 * the database: signing in 60 people through the pages would take minutes.
 */
export async function seedMembers(orgId: number, count: number) {
  const tag = randomUUID().slice(0, 8);
  const people = Array.from({ length: count }, (_, i) => ({
    name: `Seeded ${String(i + 1).padStart(2, "0")} ${tag}`,
    email: `seeded.${i + 1}.${tag}@example.test`,
  }));
  const start = Date.now() + 1000;
  await writeDatabase(
    people.flatMap((p, i) => [
      {
        sql: "insert into users (name, email, email_verified, created_at, search_text) values (?, ?, 1, ?, ?)",
        params: [p.name, p.email, start, `${p.name}\n${p.email}`.toLowerCase()],
      },
      {
        sql: "insert into memberships (org_id, user_id, role, created_at) values (?, (select id from users where email = ?), 'member', ?)",
        params: [orgId, p.email, start + i],
      },
    ]),
  );
  return people;
}
