import type { Locator, Page } from "@playwright/test";
import { isolate } from "~/lib/bidi";
import { signInWithOrganization } from "./support/auth";
import { organizationWithMember } from "./support/team";
import { expect, hydrated, test } from "./support/test";

/**
 * Confirmations, the Roll step and the account menu open in the browser's top layer (decision 0097):
 * never clipped by a table's scroll area, closed by Escape or a click elsewhere, usable without
 * JavaScript; wide tables scroll inside their card; toasts can be dismissed without JavaScript.
 */

async function createTokens(page: Page, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const response = await page.request.post("/api/v1/tokens", { data: { scopes: ["chat"], expiresAt: null } });
    ids.push(((await response.json()) as { publicId: string }).publicId);
  }
  return ids;
}

const tokenRow = (page: Page, publicId: string) => page.getByRole("table", { name: "API tokens" }).locator(`tbody tr[data-token="${publicId}"]`);

/** Revokes a token through its row's confirmation; the toast that says so. */
async function revokeAndFindToast(page: Page, publicId: string): Promise<Locator> {
  await tokenRow(page, publicId).getByRole("button", { name: "Revoke" }).click();
  await page
    .getByRole("alertdialog", { name: new RegExp(`Revoke ${publicId}`) })
    .getByRole("button", { name: "Revoke token" })
    .click();
  return page.getByRole("status").filter({ hasText: `Token ${publicId} revoked.` });
}

/** The element's box lies inside the window. */
async function expectInViewport(page: Page, locator: Locator) {
  const box = (await locator.boundingBox())!;
  const size = page.viewportSize()!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(size.width);
  expect(box.y + box.height).toBeLessThanOrEqual(size.height);
}

test("a confirmation takes focus on Cancel, and Escape or a click elsewhere closes it, focus back on its button", async ({ page }) => {
  await signInWithOrganization(page, "Escape");
  const [publicId] = await createTokens(page, 1);
  await page.goto("/tokens");
  await expect(page.getByRole("complementary", { name: "Sidebar" }).getByRole("button", { name: "Switch" })).toHaveCount(0); // hydrated
  const revoke = tokenRow(page, publicId!).getByRole("button", { name: "Revoke" });
  await revoke.click();
  const question = page.getByRole("alertdialog", { name: `Revoke ${publicId}? Requests using it are refused from now on.` });
  await expect(question).toBeVisible();
  await expect(question.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(question).toBeHidden();
  await expect(revoke).toBeFocused();

  await tokenRow(page, publicId!)
    .getByRole("button", { name: `Roll ${publicId}` })
    .click();
  const roll = page.getByRole("dialog", { name: `Roll ${publicId}` });
  await expect(roll).toBeVisible();
  await page.getByRole("heading", { name: "API Tokens", level: 1 }).click();
  await expect(roll).toBeHidden();

  await page.getByRole("button", { name: "Account menu" }).click();
  await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Logout" })).toBeHidden();
  // The token was not revoked by any of this.
  await expect(tokenRow(page, publicId!)).toContainText("active");
});

test("an open confirmation keeps Tab and Shift+Tab inside it until it is dismissed", async ({ page }) => {
  await signInWithOrganization(page, "TrapTab");
  const [publicId] = await createTokens(page, 1);
  await page.goto("/tokens");
  await hydrated(page);
  const revoke = tokenRow(page, publicId!).getByRole("button", { name: "Revoke" });
  await revoke.click();
  const question = page.getByRole("alertdialog", { name: new RegExp(`Revoke ${publicId}`) });
  const cancel = question.getByRole("button", { name: "Cancel" });
  const confirm = question.getByRole("button", { name: "Revoke token" });
  await expect(cancel).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(confirm).toBeFocused();
  // Past the last button focus comes back to the first, not to the row's controls under the question.
  await page.keyboard.press("Tab");
  await expect(cancel).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(confirm).toBeFocused();
  await expect(question).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(question).toBeHidden();
  await expect(revoke).toBeFocused();
  await expect(tokenRow(page, publicId!)).toContainText("active");
});

test("Roll and the account menu close when Tab leaves them, so focus is never under them", async ({ page }) => {
  await signInWithOrganization(page, "LeaveTab");
  const [publicId] = await createTokens(page, 1);
  await page.goto("/tokens");
  await hydrated(page);
  await tokenRow(page, publicId!)
    .getByRole("button", { name: `Roll ${publicId}` })
    .click();
  const roll = page.getByRole("dialog", { name: `Roll ${publicId}` });
  await expect(roll).toBeVisible();
  await roll.getByRole("button", { name: "Roll token" }).focus();
  await page.keyboard.press("Tab");
  await expect(roll).toBeHidden();
  // Focus goes on to the row's next control (Revoke), which the closed panel no longer covers.
  await expect(tokenRow(page, publicId!).getByRole("button", { name: "Revoke" })).toBeFocused();

  const account = page.getByRole("button", { name: "Account menu" });
  await account.focus();
  await page.keyboard.press("Enter");
  const logout = page.getByRole("button", { name: "Logout" });
  await expect(logout).toBeVisible();
  // Shift+Tab from inside back to the menu's own button keeps it open.
  await page.getByRole("link", { name: "Organizations" }).focus();
  await page.keyboard.press("Shift+Tab");
  await expect(account).toBeFocused();
  await expect(logout).toBeVisible();
  await logout.focus();
  await page.keyboard.press("Tab");
  await expect(logout).toBeHidden();
  await expect(page).toHaveURL(/\/tokens$/);
});

test("on a desktop screen the token table scrolls inside its card, with each row's actions in view", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInWithOrganization(page, "Wide");
  const ids = await createTokens(page, 3);
  await page.goto("/tokens");
  const overflow = await page.locator("main").evaluate((main) => main.scrollWidth - main.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const revoke = tokenRow(page, ids[1]!).getByRole("button", { name: "Revoke" });
  await revoke.scrollIntoViewIfNeeded();
  await expectInViewport(page, revoke);
  await revoke.click();
  const confirm = page.getByRole("alertdialog").getByRole("button", { name: "Revoke token" });
  await expectInViewport(page, confirm);
  await confirm.click();
  await expect(page.getByRole("status").filter({ hasText: `Token ${ids[1]} revoked.` })).toBeVisible();
  await expect(tokenRow(page, ids[1]!)).toContainText("revoked");
});

test("Settings on a row far down the list brings its form into view and focus", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 700 });
  await signInWithOrganization(page, "Settings");
  const ids = await createTokens(page, 8);
  await page.goto("/tokens");
  const last = tokenRow(page, ids[0]!); // the oldest is listed last
  await last.getByRole("link", { name: `Settings of ${ids[0]}` }).scrollIntoViewIfNeeded();
  await last.getByRole("link", { name: `Settings of ${ids[0]}` }).click();
  const form = page.getByRole("region", { name: `Settings of ${ids[0]}` });
  await expect(form).toBeFocused();
  await expect(form).toBeInViewport();
});

/** How light the outermost pixel columns of an element are, left and right (255: white), read from a screenshot. */
async function edgeLightness(page: Page, locator: Locator): Promise<{ left: number; right: number }> {
  const png = (await locator.screenshot()).toString("base64");
  const decoder = await page.context().newPage(); // about:blank: no page policy in the way of a data: image
  try {
    return await decoder.evaluate(async (data) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = document.createElement("canvas");
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext("2d")!;
      context.drawImage(image, 0, 0);
      const column = (x: number) => {
        const { data: pixels } = context.getImageData(x, 0, 3, image.height);
        let sum = 0;
        for (let i = 0; i < pixels.length; i += 4) sum += (pixels[i]! + pixels[i + 1]! + pixels[i + 2]!) / 3;
        return sum / (pixels.length / 4);
      };
      return { left: column(0), right: column(image.width - 3) };
    }, png);
  } finally {
    await decoder.close();
  }
}

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });

  test("a table wider than the screen shades the side where more columns wait", async ({ page }) => {
    await signInWithOrganization(page, "Shade");
    await createTokens(page, 2);
    await page.goto("/tokens");
    const region = page.locator(".table-region").filter({ has: page.getByRole("table", { name: "API tokens" }) });
    await region.scrollIntoViewIfNeeded();
    const start = await edgeLightness(page, region);
    expect(start.right).toBeLessThan(start.left - 10);
    await region.evaluate((el) => (el.scrollLeft = el.scrollWidth));
    const end = await edgeLightness(page, region);
    expect(end.left).toBeLessThan(end.right - 10);
  });

  test("removing a member asks a question shown whole, not clipped by the table", async ({ page, browser, baseURL }) => {
    const { member } = await organizationWithMember(page, browser, baseURL!);
    await page.goto("/team");
    const row = page.getByRole("row", { name: new RegExp(member.person.email) });
    const remove = row.getByRole("button", { name: "Remove" });
    await remove.scrollIntoViewIfNeeded();
    await remove.click();
    const question = page.getByRole("alertdialog", { name: new RegExp(`Remove ${isolate(member.person.name)}`) });
    await expect(question).toBeVisible();
    await expectInViewport(page, question.getByRole("button", { name: "Remove member" }));
    await expectInViewport(page, question.getByText(`Remove ${isolate(member.person.name)} from the organization?`));
    await question.getByRole("button", { name: "Remove member" }).click();
    await expect(page.getByRole("row", { name: new RegExp(member.person.email) })).toHaveCount(0);
    await member.page.context().close();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a confirmation opens and cancels, the toast after it can be dismissed and goes by itself, and no copy button is offered", async ({ page }) => {
    await signInWithOrganization(page, "NoJsPopover");
    const [keep, drop] = await createTokens(page, 2);
    await page.goto("/tokens");
    await tokenRow(page, keep!).getByRole("button", { name: "Revoke" }).click();
    const question = page.getByRole("alertdialog", { name: new RegExp(`Revoke ${keep}`) });
    await question.getByRole("button", { name: "Cancel" }).click();
    await expect(question).toBeHidden();

    const toast = await revokeAndFindToast(page, drop!);
    await expect(toast).toBeVisible();
    await toast.getByText("✕").click();
    await expect(toast).toBeHidden();
    await expect(tokenRow(page, keep!)).toContainText("active");
    await expect(tokenRow(page, drop!)).toContainText("revoked");

    // The next toast goes after five seconds, as it does with JavaScript.
    const next = await revokeAndFindToast(page, keep!);
    await expect(next).toBeVisible();
    await expect(next).toBeHidden({ timeout: 15_000 });

    await page.getByRole("button", { name: "Create token" }).click();
    const reveal = page.getByRole("region", { name: "Token created" });
    await expect(reveal.getByLabel("New token secret")).toBeVisible();
    await expect(reveal.getByRole("button", { name: "Copy token" })).toBeHidden();
  });
});
