import { signInWithOrganization } from "./support/auth";
import { addCardWithRequests } from "./support/billing";
import { expect, hydrated, test } from "./support/test";

/**
 * Issue 14 item 2, decision 0091: after a submission made from the keyboard, focus lands on its result
 * (the new secret, the new invite code, the error) instead of dropping to the page body. The skip link
 * and aria-current on the active nav link are covered in responsive.spec.ts.
 */

test("the new token secret takes focus after Create token, and again after a second one", async ({ page }) => {
  await signInWithOrganization(page, "FocusToken");
  await page.goto("/tokens");
  const form = page.getByRole("region", { name: "Create API token" });
  await form.getByRole("button", { name: "Create token" }).focus();
  await page.keyboard.press("Enter");
  const reveal = page.getByRole("region", { name: "Token created" });
  await expect(reveal).toBeFocused();
  const first = await reveal.getByLabel("New token secret").textContent();

  // Tab on from the result reaches its copy button: the result is in the page's order, not a trap.
  await page.keyboard.press("Tab");
  await expect(reveal.getByRole("button", { name: "Copy token" })).toBeFocused();

  await form.getByRole("button", { name: "Create token" }).focus();
  await page.keyboard.press("Enter");
  await expect(reveal.getByLabel("New token secret")).not.toHaveText(first!);
  await expect(reveal).toBeFocused();
});

test("the platform's error takes focus after a refused submission", async ({ page }) => {
  await signInWithOrganization(page, "FocusError");
  const created = await page.request.post("/api/v1/tokens", { data: { scopes: ["chat"], expiresAt: null } });
  const { publicId } = (await created.json()) as { publicId: string };
  await page.goto("/tokens");
  // Focus is moved to the result by React: a click before hydration takes the page-by-page path instead.
  await hydrated(page);
  expect((await page.request.delete(`/api/v1/tokens/${publicId}`)).ok()).toBe(true);
  await page.getByRole("table", { name: "API tokens" }).locator("tbody tr").nth(1).getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke token" }).focus();
  await page.keyboard.press("Enter");
  const alert = page.getByRole("alert");
  await expect(alert).toHaveText("This token is already revoked");
  await expect(alert).toBeFocused();
});

test("a new invite code takes focus, and the next one too", async ({ page }) => {
  await signInWithOrganization(page, "FocusInvite");
  await page.goto("/team");
  await page.getByRole("button", { name: "Single-use invite" }).focus();
  await page.keyboard.press("Enter");
  const code = page.getByRole("status", { name: "Invite code" });
  await expect(code).toContainText("single-use");
  await expect(code).toBeFocused();

  // The keyboard press goes to the button only once it is focused and enabled (not still pending from the first).
  const multi = page.getByRole("button", { name: "Multi-use invite" });
  await expect(multi).toBeEnabled();
  await multi.focus();
  await expect(multi).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(code).toContainText("multi-use");
  await expect(code).toBeFocused();
});

test("a declined charge's error takes focus in the add-funds dialog", async ({ page }) => {
  await signInWithOrganization(page, "FocusDeclined");
  await addCardWithRequests(page, "4000000000000341");
  await page.goto("/billing?dialog=add-funds");
  const dialog = page.getByRole("dialog", { name: "Add funds" });
  await dialog.getByLabel("Amount (USD)").fill("30");
  await dialog.getByLabel("Amount (USD)").press("Enter");
  const alert = dialog.getByRole("alert");
  await expect(alert).toHaveText("Your card was declined.");
  await expect(alert).toBeFocused();
});

test("Back closes a dialog its link opened, focus back on the link; Forward opens it again; Escape and ✕ close it the same way", async ({ page }) => {
  await signInWithOrganization(page, "DialogBack");
  await page.goto("/team");
  await page.goto("/chat?model=builtin");
  await hydrated(page);
  const opener = page.getByRole("link", { name: "API examples" });
  const dialog = page.getByRole("dialog", { name: "API examples" });

  await opener.click();
  await expect(dialog).toBeVisible();
  await page.goBack();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/chat\?model=builtin$/);
  await expect(opener).toBeFocused();
  await page.goForward();
  await expect(dialog).toBeVisible();

  // Escape (and ✕) go back to where the link was followed: one more Back leaves the chat for /team.
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
  await opener.click();
  await dialog.getByRole("link", { name: "Close", exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/chat\?model=builtin$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/team$/);
});

test.describe("with JavaScript disabled", () => {
  test.use({ javaScriptEnabled: false });

  test("the new token secret and the new invite code take focus when the answer loads", async ({ page }) => {
    await signInWithOrganization(page, "FocusNoJs");
    await page.goto("/tokens");
    await page.getByRole("region", { name: "Create API token" }).getByRole("button", { name: "Create token" }).click();
    await expect(page.getByRole("region", { name: "Token created" })).toBeFocused();

    await page.goto("/team");
    await page.getByRole("button", { name: "Single-use invite" }).click();
    await expect(page.getByRole("status", { name: "Invite code" })).toBeFocused();
  });
});
