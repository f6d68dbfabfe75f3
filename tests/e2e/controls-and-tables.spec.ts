import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { signInWithOrganization } from "./support/auth";
import { addCardWithRequests } from "./support/billing";
import { inviteWithRequests, organizationWithMember } from "./support/team";
import { expect, test } from "./support/test";

/** A CSS colour as sRGB (0–255) and alpha, as the browser paints it: whatever notation it computes to. */
async function painted(page: Page, colour: string): Promise<[number, number, number, number]> {
  return page.evaluate((c) => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const context = canvas.getContext("2d")!;
    context.fillStyle = c;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
    return [r!, g!, b!, a! / 255] as [number, number, number, number];
  }, colour);
}

function luminance([r, g, b]: number[]): number {
  const lin = (v: number) => ((v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
}

/** The contrast of a (possibly translucent) colour over an opaque background. */
async function contrast(page: Page, colour: string, background: string): Promise<number> {
  const [r, g, b, a] = await painted(page, colour);
  const bg = await painted(page, background);
  const over = [r, g, b].map((v, i) => v * a + bg[i]! * (1 - a));
  const [l1, l2] = [luminance(over), luminance(bg)].sort((x, y) => y - x);
  return (l1! + 0.05) / (l2! + 0.05);
}

const cardBackground = (field: Locator) => field.evaluate((el) => getComputedStyle(el.closest(".card") ?? document.body).backgroundColor);

for (const colorScheme of ["light", "dark"] as const) {
  test(`in the ${colorScheme} theme, placeholders read at 4.5:1 and field and checkbox borders show at 3:1`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await signInWithOrganization(page, `Contrast${colorScheme}`);
    await page.goto("/tokens");
    const form = page.getByRole("region", { name: "Create API token" });
    const budget = form.getByPlaceholder("No limit").first();
    await expect(budget).toBeVisible();
    const background = await cardBackground(budget);
    const placeholder = await budget.evaluate((el) => getComputedStyle(el, "::placeholder").color);
    expect(await contrast(page, placeholder, background)).toBeGreaterThanOrEqual(4.5);
    const box = form.getByRole("checkbox").first();
    await box.uncheck();
    for (const control of [budget, box]) {
      const border = await control.evaluate((el) => getComputedStyle(el).borderTopColor);
      expect(await contrast(page, border, background)).toBeGreaterThanOrEqual(3);
    }
  });
}

test.describe("at 375 px", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("the ledger and usage tables scroll sideways from the keyboard (axe: scrollable regions are focusable)", async ({ page }) => {
    await signInWithOrganization(page, "NarrowTables");
    await addCardWithRequests(page);
    expect((await page.request.post("/api/v1/billing/add-funds", { data: { amount: 25 } })).ok()).toBe(true);
    const chat = await page.request.post("/api/v1/chat/completions", { data: { model: "builtin", messages: [{ role: "user", content: "Hi" }] } });
    expect(chat.ok()).toBe(true);
    for (const path of ["/billing", "/usage"]) {
      await page.goto(path);
      await expect(page.getByRole("table").first()).toBeVisible();
      const results = await new AxeBuilder({ page }).withRules(["scrollable-region-focusable"]).analyze();
      expect(results.violations.flatMap((v) => v.nodes.map((n) => `${path} ${n.target.join(" ")}`))).toEqual([]);
    }
    const ledger = page.getByRole("region", { name: "Activity table" });
    await page.goto("/billing");
    await ledger.focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => ledger.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  });
});

test("no two landmarks share a name on the pages with tables", async ({ page }) => {
  await signInWithOrganization(page, "Landmarks");
  await inviteWithRequests(page.request, "multi-use");
  expect((await page.request.post("/api/v1/tokens", { data: { scopes: ["chat"], expiresAt: null } })).ok()).toBe(true);
  for (const path of ["/team", "/tokens", "/audit"]) {
    await page.goto(path);
    await expect(page.getByRole("table").first()).toBeVisible();
    const results = await new AxeBuilder({ page }).withRules(["landmark-unique"]).analyze();
    expect(results.violations.flatMap((v) => v.nodes.map((n) => `${path} ${n.target.join(" ")}`))).toEqual([]);
  }
});

test("a row's buttons say which row they act on: not a column of buttons all named Revoke or Remove", async ({ page, browser, baseURL }) => {
  const { member } = await organizationWithMember(page, browser, baseURL!);
  const code = await inviteWithRequests(page.request, "multi-use");
  const ids: string[] = [];
  for (let i = 0; i < 2; i++) {
    const response = await page.request.post("/api/v1/tokens", { data: { scopes: ["chat"], expiresAt: null } });
    ids.push(((await response.json()) as { publicId: string }).publicId);
  }
  await page.goto("/tokens");
  const tokens = page.getByRole("table", { name: "API tokens" });
  for (const id of ids) {
    // The visible word stays "Revoke"; the name goes on with the row's token.
    const revoke = tokens.getByRole("button", { name: `Revoke ${id}`, exact: true });
    await expect(revoke).toBeVisible();
    await expect(revoke).toContainText("Revoke");
  }
  await page.goto("/team");
  const members = page.getByRole("region", { name: "Members table" });
  await expect(members.getByRole("button", { name: `Remove ${member.person.name}`, exact: true })).toBeVisible();
  const invites = page.getByRole("region", { name: "Invite codes table" });
  await expect(invites.getByRole("button", { name: `Revoke code ${code}`, exact: true })).toBeVisible();
  await expect(invites.getByRole("button", { name: `Copy code ${code}`, exact: true })).toBeVisible();
  await member.page.context().close();
});
