import { signInWithOrganization } from "./support/auth";
import { organizationWithMember } from "./support/team";
import { expect, test } from "./support/test";
import { chatOnceWithBuiltin, statValue } from "./support/usage";

test("a member who chats once with the built-in model sees one request on /usage", async ({ page, browser, baseURL }) => {
  const { member } = await organizationWithMember(page, browser, baseURL!);
  const memberPage = member.page;
  await chatOnceWithBuiltin(memberPage, "How much did this cost?");

  await memberPage.getByRole("link", { name: "Usage", exact: true }).click();
  await expect(memberPage).toHaveURL(/\/usage$/);
  await expect(memberPage.getByRole("heading", { level: 1, name: "Usage" })).toBeVisible();
  await expect(memberPage.getByRole("link", { name: "30 days" })).toHaveAttribute("aria-current", "page");
  await expect(statValue(memberPage, "Requests", "1")).toBeVisible();
  await expect(statValue(memberPage, "Cost", "$0.00")).toBeVisible();
  await expect(memberPage.getByText("No usage in this period.")).toHaveCount(0);

  const builtin = memberPage.getByRole("row", { name: /^builtin/ });
  await expect(builtin.getByRole("cell").first()).toHaveText("1");
  await expect(builtin.getByRole("cell").last()).toHaveText("$0.00");
  await expect(
    memberPage
      .getByRole("row", { name: /^Console chat/ })
      .getByRole("cell")
      .first(),
  ).toHaveText("1");
  // Today's bar says what it stands for to a screen reader; the table behind the disclosure agrees.
  await expect(
    memberPage
      .getByRole("list", { name: /Daily tokens/ })
      .getByRole("listitem")
      .last(),
  ).toContainText("1 request");
  // Read once: the bar's hover tooltip (a shorter "27 Oct: 24 tokens") is not part of what is read.
  expect(
    await memberPage
      .getByRole("list", { name: /Daily tokens/ })
      .getByRole("listitem")
      .last()
      .ariaSnapshot(),
  ).toMatch(/^- listitem: "?\d{1,2} \w{3} \d{4}: [\d,]+ tokens?, 1 request"?$/);
  await memberPage.getByText("Daily figures as a table").click();
  const days = memberPage.getByRole("table", { name: "Usage per UTC day" }).getByRole("row");
  await expect(days).toHaveCount(31);
  await expect(days.last().getByRole("cell").first()).toHaveText("1");

  await memberPage.getByRole("link", { name: "7 days" }).click();
  await expect(memberPage).toHaveURL(/\/usage\?days=7$/);
  await expect(memberPage.getByRole("link", { name: "7 days" })).toHaveAttribute("aria-current", "page");
  await expect(statValue(memberPage, "Requests", "1")).toBeVisible();

  await memberPage.getByRole("link", { name: "Cost", exact: true }).click();
  await expect(memberPage).toHaveURL(/\/usage\?days=7&chart=cost$/);
  await expect(
    memberPage
      .getByRole("list", { name: /Daily cost/ })
      .getByRole("listitem")
      .last(),
  ).toContainText("$0.00, 1 request");

  // The admin of the same organization sees the member's chat too.
  await page.goto("/usage?days=90");
  await expect(statValue(page, "Requests", "1")).toBeVisible();
  await memberPage.context().close();
});

test("a fresh organization sees the empty state in every period", async ({ page }) => {
  await signInWithOrganization(page);
  await page.goto("/usage");
  await expect(page.getByText("No usage in this period.")).toBeVisible();
  await expect(statValue(page, "Requests", "0")).toBeVisible();
  await expect(statValue(page, "Tokens", "0")).toBeVisible();
  await expect(statValue(page, "Cost", "$0.00")).toBeVisible();
  await expect(page.getByRole("table")).toHaveCount(0);

  for (const period of ["7 days", "90 days"]) {
    await page.getByRole("link", { name: period }).click();
    await expect(page.getByRole("link", { name: period })).toHaveAttribute("aria-current", "page");
    await expect(page.getByText("No usage in this period.")).toBeVisible();
  }
  await page.getByRole("link", { name: "Open chat" }).click();
  await expect(page).toHaveURL(/\/chat$/);
});

test("an unknown period in the URL shows the default 30 days", async ({ page }) => {
  await signInWithOrganization(page);
  await page.goto("/usage?days=365");
  await expect(page.getByRole("link", { name: "30 days" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText("No usage in this period.")).toBeVisible();
});

test.describe("with JavaScript disabled", () => {
  test.use({ javaScriptEnabled: false });

  test("the report is on the page and the period links work", async ({ page }) => {
    await signInWithOrganization(page);
    await page.goto("/usage");
    await expect(page.getByText("No usage in this period.")).toBeVisible();
    await expect(statValue(page, "Requests", "0")).toBeVisible();
    await page.getByRole("link", { name: "90 days" }).click();
    await expect(page).toHaveURL(/\/usage\?days=90$/);
    await expect(page.getByRole("link", { name: "90 days" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByText("No usage in this period.")).toBeVisible();
  });
});
