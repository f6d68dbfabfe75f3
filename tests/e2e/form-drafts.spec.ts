import { createOrganizationWithRequests, newPerson, signInThroughPages, signInWithOrganization, signInWithRequests } from "./support/auth";
import { expect, hydrated, test } from "./support/test";

/** What was typed survives a session that ends mid-form: kept in the tab, filled back in after signing in again. */

const KEPT = "Your session ended. What you typed is kept: sign in to continue where you were.";
const RESTORED = "Signed in again: what you typed before is filled back in. Check it, then submit again.";

test("a form posted after the session ended comes back filled in after signing in again, once", async ({ page }) => {
  const { person } = await signInWithOrganization(page);
  await page.goto("/billing");
  // The form is kept by the page's script: a post before it runs is the browser's own.
  await hydrated(page);
  const cap = page.getByRole("region", { name: "Monthly spend cap" });
  await cap.getByLabel("Monthly spend cap (USD)").fill("777");
  // Signed out elsewhere (another tab, an expiry): this tab does not know yet.
  await page.request.post("/api/v1/auth/logout");
  await cap.getByRole("button", { name: "Save cap" }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText(KEPT)).toBeVisible();

  await signInThroughPages(page, person);
  await expect(page).toHaveURL(/\/billing$/);
  await expect(cap.getByLabel("Monthly spend cap (USD)")).toHaveValue("777");
  await expect(page.getByRole("status").filter({ hasText: RESTORED })).toBeVisible();
  // Nothing was saved: the user checks, then sends it, and the page says so.
  await expect(cap).toContainText("No cap.");
  await cap.getByRole("button", { name: "Save cap" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Monthly spend cap set to $777.00." })).toBeVisible();
  await expect(cap).toContainText("of $777.00.");
  // Kept for one return only.
  await page.request.post("/api/v1/billing/spend-cap", { data: { monthlyCap: null }, headers: { origin: new URL(page.url()).origin } });
  await page.reload();
  await expect(cap.getByLabel("Monthly spend cap (USD)")).toHaveValue("");
  await expect(page.getByText(RESTORED)).toHaveCount(0);
});

test("someone else signing in on the same tab does not get what was typed", async ({ page }) => {
  await signInWithOrganization(page);
  await page.goto("/billing");
  // The form is kept by the page's script: a post before it runs is the browser's own.
  await hydrated(page);
  const cap = page.getByRole("region", { name: "Monthly spend cap" });
  await cap.getByLabel("Monthly spend cap (USD)").fill("31337");
  await page.request.post("/api/v1/auth/logout");
  await cap.getByRole("button", { name: "Save cap" }).click();
  await expect(page.getByText(KEPT)).toBeVisible();

  const other = newPerson("Other");
  await signInWithRequests(page.request, other);
  await createOrganizationWithRequests(page.request, `Org ${other.name}`);
  await page.goto("/billing");
  await expect(cap.getByLabel("Monthly spend cap (USD)")).toHaveValue("");
  await expect(page.getByText(RESTORED)).toHaveCount(0);
});

test("the inactivity check that finds the session ended keeps what was typed too (SPEC §4: 5 minutes)", async ({ page }) => {
  await page.clock.install();
  const { person } = await signInWithOrganization(page);
  await page.goto("/billing");
  // The form is kept by the page's script: a post before it runs is the browser's own.
  await hydrated(page);
  const cap = page.getByRole("region", { name: "Monthly spend cap" });
  await cap.getByLabel("Monthly spend cap (USD)").fill("42");
  await page.request.post("/api/v1/auth/logout");
  // Four minutes idle: not checked yet.
  await page.clock.runFor(240_000);
  await expect(page).toHaveURL(/\/billing$/);
  await page.clock.runFor(61_000);
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fbilling$/);
  await expect(page.getByText(KEPT)).toBeVisible();

  await signInThroughPages(page, person);
  await expect(page).toHaveURL(/\/billing$/);
  await expect(cap.getByLabel("Monthly spend cap (USD)")).toHaveValue("42");
});

test("/welcome, outside the sidebar layout, is re-checked after 5 idle minutes as well", async ({ page }) => {
  await page.clock.install();
  const person = newPerson("Newcomer");
  await signInWithRequests(page.request, person);
  await page.goto("/welcome");
  await hydrated(page);
  await page.request.post("/api/v1/auth/logout");
  await page.clock.runFor(240_000);
  await expect(page).toHaveURL(/\/welcome$/);
  await page.clock.runFor(61_000);
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fwelcome$/);
});
