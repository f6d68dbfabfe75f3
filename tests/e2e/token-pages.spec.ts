import { randomUUID } from "node:crypto";
import { signInWithOrganization } from "./support/auth";
import { writeDatabase } from "./support/billing";
import { expect, hydrated, test } from "./support/test";

/** `count` active tokens, newer than the primary one, straight into the database. */
async function seedTokens(orgId: number, count: number) {
  const tag = randomUUID().slice(0, 6);
  const start = Date.now();
  const ids = Array.from({ length: count }, (_, i) => `tok_seed${tag}${String(i).padStart(2, "0")}`);
  await writeDatabase(
    ids.map((publicId, i) => ({
      sql: "insert into api_tokens (public_id, org_id, secret_hash, scopes, is_primary, created_at) values (?, ?, ?, '[\"chat\"]', 0, ?)",
      params: [publicId, orgId, randomUUID(), start + i],
    })),
  );
  // Newest first: the last seeded leads the list, after the primary token.
  return ids.reverse();
}

test("56 tokens are shown 50 at a time, and a token's settings opened on the second page go back to it", async ({ page }) => {
  const { orgId } = await signInWithOrganization(page);
  const seeded = await seedTokens(orgId, 55);
  await page.goto("/tokens");
  const rows = page.getByRole("table", { name: "API tokens" }).locator("tbody tr");
  await expect(rows).toHaveCount(50);
  await expect(page.getByRole("heading", { name: "Tokens 56" })).toBeVisible();

  await page.getByRole("navigation", { name: "Token pages" }).getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/\/tokens\?page=2$/);
  await expect(rows).toHaveCount(6);
  // The primary token and 49 seeded ones fill the first page.
  const publicId = seeded[49];
  await expect(rows.first()).toContainText(publicId);

  await page.getByRole("link", { name: `Settings of ${publicId}` }).click();
  const settings = page.getByRole("region", { name: `Settings of ${publicId}` });
  await settings.getByLabel("Requests per minute").fill("30");
  await settings.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Settings of ${publicId} saved.` })).toBeVisible();
  await expect(page).toHaveURL(/\/tokens\?page=2$/);
  await expect(page.locator(`tr[data-token="${publicId}"]`)).toContainText("30 / min");
  // The form went with its focus: it is back on the token's Settings link.
  await expect(page.getByRole("link", { name: `Settings of ${publicId}` })).toBeFocused();

  await page.getByRole("link", { name: `Settings of ${publicId}` }).click();
  await page
    .getByRole("region", { name: `Settings of ${publicId}` })
    .getByRole("link", { name: "Cancel" })
    .click();
  await expect(page).toHaveURL(/\/tokens\?page=2$/);
  await expect(page.getByRole("region", { name: `Settings of ${publicId}` })).toHaveCount(0);
  await expect(page.getByRole("link", { name: `Settings of ${publicId}` })).toBeFocused();

  await page.getByRole("navigation", { name: "Token pages" }).getByRole("link", { name: "Previous" }).click();
  await expect(page).toHaveURL(/\/tokens$/);
  await expect(rows).toHaveCount(50);
  await expect(page.getByRole("navigation", { name: "Token pages" }).getByRole("status")).toHaveText("Page 1 of 2: 50 tokens");
});

test("revoking another token while one's Settings is open leaves focus to the revoke, not to that Settings link", async ({ page }) => {
  await signInWithOrganization(page, "FocusBack");
  const ids: string[] = [];
  for (let i = 0; i < 2; i++) {
    const created = await page.request.post("/api/v1/tokens", { data: { scopes: ["chat"], expiresAt: null } });
    ids.push(((await created.json()) as { publicId: string }).publicId);
  }
  const [other, open] = ids;
  await page.goto(`/tokens?edit=${open}`);
  await hydrated(page);
  await page.locator(`tr[data-token="${other}"]`).getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke token" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Token ${other} revoked.` })).toBeVisible();
  await expect(page.getByRole("link", { name: `Settings of ${open}` })).not.toBeFocused();
  await expect(page.getByRole("heading", { name: /^Tokens/ })).toBeFocused();
});
