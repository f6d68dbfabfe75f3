import { expect, test } from "./support/test";
import { signInWithOrganization } from "./support/auth";

test("a signed-in member with an organization sees the home categories", async ({ page }) => {
  await signInWithOrganization(page);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Try AI Models" })).toBeVisible();
});
