import type { Page } from "@playwright/test";
import { newPerson, signInWithOrganization } from "./support/auth";
import { signedInPage } from "./support/team";
import { expect, test } from "./support/test";

/** Issue 14: invite management on /team. */

const inviteList = (page: Page) => page.getByRole("region", { name: /Active invite codes/ }).getByRole("table");
const inviteRow = (page: Page, code: string) => inviteList(page).getByRole("row").filter({ hasText: code });

async function newCode(page: Page, kind: "Single-use invite" | "Multi-use invite", options: { expiry?: string; maxUses?: string } = {}) {
  if (options.expiry) await page.getByLabel("Expires after").selectOption({ label: options.expiry });
  if (options.maxUses !== undefined) await page.getByLabel("Maximum uses").fill(options.maxUses);
  const created = page.getByRole("status", { name: "Invite code" }).locator("code");
  const before = (await created.count()) ? await created.textContent() : null;
  await page.getByRole("button", { name: kind }).click();
  await expect(created).toHaveText(/^[A-Z2-9]{12}$/);
  if (before) await expect(created).not.toHaveText(before);
  return (await created.textContent())!.trim();
}

async function joinOnWelcome(page: Page, code: string) {
  await page.goto("/welcome");
  await page.getByPlaceholder("Enter invite code").fill(code);
  await page.getByRole("button", { name: "Join Organization" }).click();
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "with JavaScript disabled", () => {
    test.use({ javaScriptEnabled });

    test("an admin sees every active code with its kind, maker, time, uses, maximum and expiry, and revokes one after confirming", async ({
      page,
      browser,
      baseURL,
    }) => {
      test.slow(); // three people and a dozen page loads
      const { person } = await signInWithOrganization(page, "Inviter");
      const document = await page.goto("/team");
      // The page lists live codes: no cache keeps it for Back to show after signing out.
      expect(document!.headers()["cache-control"]).toBe("no-store");
      await expect(inviteList(page)).toHaveCount(0);
      await expect(page.getByText("No active invite codes.")).toBeVisible();

      const single = await newCode(page, "Single-use invite");
      const limited = await newCode(page, "Multi-use invite", { expiry: "7 days", maxUses: "2" });
      // Both stay listed: a new code no longer hides the one before, and a reload keeps them.
      await page.goto("/team"); // not a reload: without JavaScript that would post the last form again
      await expect(inviteList(page).getByRole("row")).toHaveCount(3);
      const singleRow = inviteRow(page, single);
      await expect(singleRow).toContainText("Single-use");
      await expect(singleRow).toContainText(person.name);
      await expect(singleRow).toContainText("0 of 1");
      await expect(singleRow).toContainText("Never");
      const limitedRow = inviteRow(page, limited);
      await expect(limitedRow).toContainText("Multi-use");
      await expect(limitedRow).toContainText("0 of 2");
      const inAWeek = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", year: "numeric", month: "short", day: "2-digit" }).format(
        Date.now() + 7 * 86_400_000,
      );
      await expect(limitedRow).toContainText(inAWeek);

      // Uses are counted; the maximum ends the code, and the SPEC's error path shows the platform's text.
      const people = [];
      for (const name of ["First", "Second", "Third"]) people.push(await signedInPage(browser, baseURL!, newPerson(name), { javaScriptEnabled }));
      await joinOnWelcome(people[0]!, limited);
      await expect(people[0]!).toHaveURL(/\/team$/);
      await page.goto("/team");
      await expect(inviteRow(page, limited)).toContainText("1 of 2");
      await joinOnWelcome(people[1]!, limited);
      await expect(people[1]!).toHaveURL(/\/team$/);
      await joinOnWelcome(people[2]!, limited);
      await expect(people[2]!.getByRole("alert")).toHaveText("This invite code is invalid or has already been used");
      await page.goto("/team");
      await expect(inviteRow(page, limited)).toHaveCount(0);

      // Revoke, after a confirmation the page renders.
      await inviteRow(page, single).getByRole("button", { name: "Revoke" }).click();
      const confirm = page.getByRole("alertdialog", { name: new RegExp(`Revoke invite code ${single}`) });
      await expect(confirm).toBeVisible();
      await confirm.getByRole("button", { name: "Revoke invite" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Invite code revoked." })).toBeVisible();
      await expect(inviteRow(page, single)).toHaveCount(0);
      await expect(page.getByText("No active invite codes.")).toBeVisible();
      await joinOnWelcome(people[2]!, single);
      await expect(people[2]!.getByRole("alert")).toHaveText("This invite code has been revoked");
      await expect(people[2]!.getByPlaceholder("Enter invite code")).toHaveValue(single);
      for (const p of people) await p.context().close();
    });

    test("a maximum outside 1 to 1,000 is refused next to its field, keeping what was chosen", async ({ page }) => {
      await signInWithOrganization(page, "Limiter");
      await page.goto("/team");
      await page.getByLabel("Expires after").selectOption({ label: "30 days" });
      // Past the browser's own min/max check (it only applies before hydration and without JavaScript).
      await page.getByLabel("Maximum uses").evaluate((input: HTMLInputElement) => {
        input.removeAttribute("min");
        input.removeAttribute("max");
      });
      await page.getByLabel("Maximum uses").fill("5000");
      await page.getByRole("button", { name: "Multi-use invite" }).click();
      await expect(page.getByText("Maximum uses must be a whole number from 1 to 1,000")).toBeVisible();
      await expect(page.getByLabel("Maximum uses")).toHaveValue("5000");
      await expect(page.getByLabel("Expires after")).toHaveValue("30");
      await expect(page.getByRole("status", { name: "Invite code" })).toHaveCount(0);
      await expect(page.getByText("No active invite codes.")).toBeVisible();
    });

    test("a maximum typed for a single-use code is refused, not dropped", async ({ page }) => {
      await signInWithOrganization(page, "OneUse");
      await page.goto("/team");
      await page.getByLabel("Maximum uses").fill("10");
      await page.getByRole("button", { name: "Single-use invite" }).click();
      await expect(page.getByText("A single-use code has one use: press Multi-use invite for this maximum, or clear it")).toBeVisible();
      await expect(page.getByLabel("Maximum uses")).toHaveValue("10");
      await expect(page.getByText("No active invite codes.")).toBeVisible();
      await page.getByRole("button", { name: "Multi-use invite" }).click();
      await expect(page.getByRole("status", { name: "Invite code" })).toContainText("multi-use");
      await expect(inviteList(page).locator("tbody tr")).toContainText(["0 of 10"]);
    });
  });
}

test("Enter in Maximum uses makes a multi-use code with that maximum", async ({ page }) => {
  await signInWithOrganization(page, "EnterMax");
  await page.goto("/team");
  await expect(page.getByRole("complementary", { name: "Sidebar" }).getByRole("button", { name: "Switch" })).toHaveCount(0); // hydrated
  await page.getByLabel("Maximum uses").fill("7");
  await page.getByLabel("Maximum uses").press("Enter");
  await expect(page.getByRole("status", { name: "Invite code" })).toContainText("multi-use");
  await expect(inviteList(page).locator("tbody tr")).toContainText(["0 of 7"]);
});

test("an expired code is refused at join with the platform's text", async ({ page, browser, baseURL }) => {
  await signInWithOrganization(page, "Expirer");
  // A code that expires a moment from now, through the platform API (the form offers whole days).
  const response = await page.request.post("/api/v1/organizations/invites", { data: { status: "multi-use", expiresAt: Date.now() + 1500 } });
  const { code } = (await response.json()) as { code: string };
  await page.goto("/team");
  await expect(inviteRow(page, code)).toBeVisible();
  await page.waitForTimeout(2000);
  await page.goto("/team"); // not a reload: without JavaScript that would post the last form again
  await expect(inviteRow(page, code)).toHaveCount(0);
  const joiner = await signedInPage(browser, baseURL!, newPerson("Late"));
  await joinOnWelcome(joiner, code);
  await expect(joiner.getByRole("alert")).toHaveText("This invite code has expired");
  await joiner.context().close();
});

test("members don't see invite codes", async ({ page, browser, baseURL }) => {
  await signInWithOrganization(page, "Keeper");
  await page.goto("/team");
  const code = await newCode(page, "Multi-use invite");
  const member = await signedInPage(browser, baseURL!, newPerson("Member"));
  await joinOnWelcome(member, code);
  await expect(member).toHaveURL(/\/team$/);
  await expect(member.getByText(code)).toHaveCount(0);
  await expect(member.getByRole("region", { name: /Active invite codes/ })).toHaveCount(0);
  expect((await member.request.get("/api/v1/organizations/invites")).status()).toBe(403);
  await member.context().close();
});
