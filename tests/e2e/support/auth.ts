import { randomUUID } from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect } from "@playwright/test";

export interface Person {
  name: string;
  email: string;
}

/** A person nobody else in the run uses, so tests can run in parallel on one database. */
export function newPerson(name = "Test User"): Person {
  const id = randomUUID().slice(0, 8);
  return { name: `${name} ${id}`, email: `${name.toLowerCase().replace(/\W+/g, ".")}.${id}@example.test` };
}

export const OPERATOR: Person = { name: "Operator", email: "operator@example.test" };

/**
 * Signs in through the development provider with HTTP requests only (the browser-driven path has its
 * own test). `request` may be a page's request context, whose cookies the page then shares.
 */
export async function signInWithRequests(request: APIRequestContext, person: Person, provider: "google" | "github" = "google", baseURL = "") {
  const authorize = await request.get(`${baseURL}/api/v1/auth/${provider}`);
  if (!authorize.ok()) throw new Error(`authorize page answered ${authorize.status()}`);
  const page = await authorize.text();
  const hidden = Object.fromEntries([...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\s*\/?>/g)].map((m) => [m[1], decodeEntities(m[2])]));
  const done = await request.post(`${baseURL}/api/v1/auth/dev/authorize`, { form: { ...hidden, name: person.name, email: person.email } });
  if (!done.ok()) throw new Error(`sign-in answered ${done.status()}: ${await done.text()}`);
}

function decodeEntities(value: string): string {
  return value
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");
}

/** Creates an organization through the platform API for the signed-in request context. */
export async function createOrganizationWithRequests(request: APIRequestContext, name: string): Promise<number> {
  const response = await request.post("/api/v1/organizations", { data: { name } });
  if (!response.ok()) throw new Error(`create organization answered ${response.status()}`);
  return ((await response.json()) as { id: number }).id;
}

/** A signed-in page whose user owns a fresh organization: the usual start of a test. */
export async function signInWithOrganization(page: Page, name = "Admin") {
  const person = newPerson(name);
  await signInWithRequests(page.request, person);
  const orgName = `Org ${person.name}`;
  const orgId = await createOrganizationWithRequests(page.request, orgName);
  return { person, orgName, orgId };
}

/** The sign-in a person makes from the login page: the development provider's page, back to the console. */
export async function signInThroughPages(page: Page, person: Person, provider: "Google" | "GitHub" = "Google") {
  await page.getByRole("link", { name: `Continue with ${provider}` }).click();
  await expect(page.getByRole("heading", { name: /Development sign-in/ })).toBeVisible();
  await page.getByLabel("Name").fill(person.name);
  await page.getByLabel("Email").fill(person.email);
  await page.getByRole("button", { name: "Authorize" }).click();
}
