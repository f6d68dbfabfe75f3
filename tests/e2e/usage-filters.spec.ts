import fs from "node:fs/promises";
import type { Page } from "@playwright/test";
import { newPerson, signInWithOrganization } from "./support/auth";
import { grantCreditWithCli, writeDatabase } from "./support/billing";
import { seedMembers, signedInPage } from "./support/team";
import { expect, hydrated, test } from "./support/test";
import { statValue } from "./support/usage";
import { afterBom, micros, parseCsv } from "../csv";

let receipt = 0;

/**
 * A completion as metering writes it, for a token (by public id) or for a member's console chat: its
 * usage row and, for a token, the month's spend that settlement counts on the token.
 */
async function recordUsage(orgId: number, row: { token?: string; userId?: number; model?: string; costMicros: number }) {
  receipt += 1;
  const now = Date.now();
  const month = new Date(now).toISOString().slice(0, 7);
  await writeDatabase([
    {
      sql: `insert into chat_usage (receipt_id, org_id, user_id, token_id, model, rate_card_id, prompt_tokens, completion_tokens, reasoning_tokens, cost_micros, estimated, outcome, created_at)
            values (?, ?, ?, (select id from api_tokens where public_id = ? and org_id = ?), ?, null, 100, 50, 0, ?, 0, 'completed', ?)`,
      params: [`rcpt_e2e_${now}_${receipt}`, orgId, row.userId ?? null, row.token ?? null, orgId, row.model ?? "builtin", row.costMicros, now],
    },
    {
      sql: `update api_tokens set month_spent_micros = (case when month_key = ? then month_spent_micros else 0 end) + ?, month_key = ?
            where public_id = ? and org_id = ?`,
      params: [month, row.costMicros, month, row.token ?? null, orgId],
    },
  ]);
}

async function createToken(page: Page): Promise<string> {
  const response = await page.request.post("/api/v1/tokens", { data: { scopes: ["chat"], expiresAt: null } });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { publicId: string }).publicId;
}

async function userId(page: Page): Promise<number> {
  return ((await (await page.request.get("/api/v1/auth/session")).json()) as { user: { id: number } }).user.id;
}

/** An organization with two tokens and a console chat: token A $3.00 (2 requests), token B $0.50, the admin's chat $0.25. */
async function seedUsage(page: Page) {
  const { orgId, person } = await signInWithOrganization(page, "Usage Admin");
  const tokenA = await createToken(page);
  const tokenB = await createToken(page);
  const me = await userId(page);
  await recordUsage(orgId, { token: tokenA, model: "llama", costMicros: 1_500_000 });
  await recordUsage(orgId, { token: tokenA, model: "llama", costMicros: 1_500_000 });
  await recordUsage(orgId, { token: tokenB, costMicros: 500_000 });
  await recordUsage(orgId, { userId: me, costMicros: 250_000 });
  return { orgId, tokenA, tokenB, me, name: person.name };
}

test("each token on /tokens shows its spend this month and links to /usage filtered to it; filters follow the URL", async ({ page }) => {
  const { tokenA, name } = await seedUsage(page);
  await page.goto("/tokens");
  const row = page.locator(`tr[data-token="${tokenA}"]`);
  await expect(page.getByRole("columnheader", { name: "This month (UTC)" })).toBeVisible();
  await expect(page.getByText(/^This month \(UTC\) and monthly budgets count from \d{2} \w{3} \d{4}, 00:00 UTC\.$/)).toBeVisible();
  // The link opens the last 30 days, and says so: that total may differ from the month's.
  const link = row.getByRole("link", { name: `Usage of ${tokenA} in the last 30 days` });
  await expect(link).toHaveText("Last 30 days");
  await expect(row.getByText("$3.00", { exact: true })).toBeVisible();
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/usage\\?days=30&token=${tokenA}$`));
  await expect(statValue(page, "Requests", "2")).toBeVisible();
  await expect(statValue(page, "Cost", "$3.00")).toBeVisible();
  await expect(page.getByRole("combobox", { name: "API token" })).toHaveValue(tokenA);

  // With JavaScript a change applies at once, and the URL says what is shown (no Apply button needed).
  await expect(page.getByRole("button", { name: "Apply" })).toHaveCount(0);
  await page.getByRole("combobox", { name: "API token" }).selectOption("");
  await expect(page).toHaveURL(/\/usage\?days=30$/);
  await expect(statValue(page, "Requests", "4")).toBeVisible();
  await expect(statValue(page, "Cost", "$3.75")).toBeVisible();
  await page.getByRole("combobox", { name: "Model" }).selectOption("llama");
  await expect(page).toHaveURL(/\/usage\?days=30&model=llama$/);
  await expect(statValue(page, "Requests", "2")).toBeVisible();
  await page.getByRole("link", { name: "7 days" }).click();
  await expect(page).toHaveURL(/\/usage\?days=7&model=llama$/);
  await expect(statValue(page, "Requests", "2")).toBeVisible();
  await page.getByRole("combobox", { name: "Model" }).selectOption("");
  await page.getByRole("combobox", { name: "Member" }).selectOption({ label: name });
  await expect(page).toHaveURL(/\/usage\?days=7&member=\d+$/);
  await expect(statValue(page, "Cost", "$0.25")).toBeVisible();
  await expect(page.getByRole("table", { name: "Console chat usage per member" })).toContainText(name);

  // A shared link naming a token of no organization of the viewer's is ignored, and the page says so.
  await page.goto("/usage?token=tok_not_mine");
  await expect(page.getByText("A token or member in the link is not in this organization")).toBeVisible();
  await expect(statValue(page, "Requests", "4")).toBeVisible();
  await page.goto("/usage?member=999999");
  await expect(page.getByText("A token or member in the link is not in this organization")).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Member" })).toHaveValue("");
  await expect(statValue(page, "Requests", "4")).toBeVisible();
});

test("a filter chosen with the keyboard keeps the focus on its select, which shows the choice while the view loads", async ({ page }) => {
  const { tokenA } = await seedUsage(page);
  await page.goto("/usage");
  await hydrated(page);
  const model = page.getByRole("combobox", { name: "Model" });
  const token = page.getByRole("combobox", { name: "API token" });

  // The filtered view's data is held back, to see what the select shows while it loads.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === "/usage.data",
    async (route) => {
      await held;
      await route.continue();
    },
    { times: 1 },
  );
  // The selects are customizable ones (appearance: base-select): ArrowDown opens the list on the
  // current option, ArrowDown moves to the first model, Enter chooses it.
  await model.focus();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(model).not.toHaveValue("");
  const chosen = await model.inputValue();
  await expect(page).toHaveURL(/\/usage$/);
  await expect(model).toHaveValue(chosen);
  release();
  await expect(page).toHaveURL((url) => url.pathname === "/usage" && url.search === `?${new URLSearchParams({ days: "30", model: chosen })}`);
  await expect(model).toBeFocused();
  await expect(model).toHaveValue(chosen);

  // On to the next filter with Tab, as a keyboard user goes: both apply, and the focus stays again.
  await page.keyboard.press("Tab");
  await expect(token).toBeFocused();
  await token.selectOption(tokenA);
  await expect(page).toHaveURL((url) => url.search === `?${new URLSearchParams({ days: "30", model: chosen, token: tokenA })}`);
  await expect(token).toBeFocused();
  await expect(model).toHaveValue(chosen);

  // Clear filters puts every select back on All.
  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/usage\?days=30$/);
  await expect(model).toHaveValue("");
  await expect(token).toHaveValue("");
  await expect(statValue(page, "Requests", "4")).toBeVisible();
});

test("without JavaScript the filters are a GET form: Apply loads the filtered URL", async ({ page, browser, baseURL }) => {
  const { tokenB } = await seedUsage(page);
  // The same person in a context without JavaScript.
  const session = await page.context().cookies();
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  await context.addCookies(session);
  const noJs = await context.newPage();
  await noJs.goto("/usage");
  await noJs.getByRole("combobox", { name: "API token" }).selectOption(tokenB);
  await noJs.getByRole("button", { name: "Apply" }).click();
  await expect(noJs).toHaveURL(new RegExp(`/usage\\?days=30&token=${tokenB}$`));
  await expect(statValue(noJs, "Requests", "1")).toBeVisible();
  await expect(statValue(noJs, "Cost", "$0.50")).toBeVisible();
  await expect(noJs.getByRole("link", { name: "Clear filters" })).toBeVisible();
  await context.close();
});

test("an organization of more than 100 members finds the member to filter by with a search, with and without JavaScript", async ({
  page,
  browser,
  baseURL,
}) => {
  const { orgId } = await seedUsage(page);
  const people = await seedMembers(orgId, 101);
  const last = people[100];
  await page.goto("/usage");
  await hydrated(page);
  const member = page.getByRole("combobox", { name: "Member" });
  const search = page.getByRole("searchbox", { name: "Find a member" });
  // The first 100 who joined are offered, and the select says there are more rather than listing 102.
  await expect(member.locator("option")).toHaveCount(102);
  await expect(member.locator("option", { hasText: "More members match: search by name or email" })).toBeDisabled();
  await expect(member.locator("option", { hasText: last.name })).toHaveCount(0);

  await search.fill(last.email.toUpperCase());
  await search.press("Enter");
  await expect(page).toHaveURL((url) => url.searchParams.get("who") === last.email.toUpperCase());
  await expect(search).toBeFocused();
  await expect(page.getByRole("status").filter({ hasText: "1 member matches" })).toBeAttached();
  await expect(member.locator("option")).toHaveText(["All members", last.name]);
  const id = await member.locator("option", { hasText: last.name }).getAttribute("value");
  await recordUsage(orgId, { userId: Number(id), costMicros: 750_000 });
  await member.selectOption(id!);
  await expect(page).toHaveURL((url) => url.searchParams.get("member") === id);
  await expect(statValue(page, "Cost", "$0.75")).toBeVisible();

  // A link to the view names the member alone: they are still the select's choice, beside the first 100.
  await page.goto(`/usage?days=30&member=${id}`);
  await expect(member).toHaveValue(id!);
  await expect(member.locator("option").nth(1)).toHaveText(last.name);
  await expect(statValue(page, "Cost", "$0.75")).toBeVisible();

  await search.fill("nobody by this name");
  await search.press("Enter");
  await expect(member.locator("option", { hasText: "No member matches “nobody by this name”" })).toBeAttached();
  await expect(member).toHaveValue(id!);

  // Without JavaScript the search is part of the GET form: Apply loads the matches.
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  await context.addCookies(await page.context().cookies());
  const noJs = await context.newPage();
  await noJs.goto("/usage");
  await noJs.getByRole("searchbox", { name: "Find a member" }).fill(last.name);
  await noJs.getByRole("button", { name: "Apply" }).click();
  await expect(noJs).toHaveURL((url) => url.search === `?${new URLSearchParams({ days: "30", who: last.name })}`);
  await expect(noJs.getByRole("combobox", { name: "Member" }).locator("option")).toHaveText(["All members", last.name]);
  await context.close();
});

test("the usage view and the ledger download as CSV whose totals match the screen and the balance", async ({ page }) => {
  const { orgId, tokenA } = await seedUsage(page);
  await page.goto(`/usage?token=${tokenA}`);
  const usageDownload = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const usageFile = await usageDownload;
  expect(usageFile.suggestedFilename()).toMatch(new RegExp(`^usage-\\d{4}-\\d{2}-\\d{2}-to-\\d{4}-\\d{2}-\\d{2}-${tokenA}\\.csv$`));
  const [usageHeader, ...usageRows] = parseCsv(afterBom(await fs.readFile((await usageFile.path())!)));
  expect(usageHeader).toEqual([
    "timestamp_utc",
    "receipt_id",
    "model",
    "source",
    "token",
    "member",
    "prompt_tokens",
    "completion_tokens",
    "reasoning_tokens",
    "cost_usd",
    "estimated",
    "outcome",
  ]);
  expect(usageRows).toHaveLength(2);
  expect(usageRows.reduce((sum, r) => sum + micros(r[9]), 0)).toBe(3_000_000);

  // The ledger: a credit and a debit of a fraction of a cent; the file sums to the balance exactly.
  grantCreditWithCli(orgId, "12.34", "e2e export");
  await writeDatabase([
    {
      sql: "insert into ledger_entries (org_id, created_at, description, model, rate_card_id, change_micros, payment_intent_id) values (?, ?, 'Chat usage', 'tiny', 'rc-tiny', -1234, null)",
      params: [orgId, Date.now()],
    },
    { sql: "update billing_accounts set balance_micros = balance_micros - 1234 where org_id = ?", params: [orgId] },
  ]);
  const direct = await page.request.get("/billing/ledger.csv");
  expect(direct.status()).toBe(200);
  expect(direct.headers()["content-type"]).toBe("text/csv; charset=utf-8");

  await page.goto("/billing");
  await expect(page.getByText("Exported totals match the ledger", { exact: false })).toBeVisible();
  const ledgerDownload = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export ledger (CSV)" }).click();
  const ledgerFile = await ledgerDownload;
  expect(ledgerFile.suggestedFilename()).toBe("ledger.csv");
  const [ledgerHeader, ...ledgerRows] = parseCsv(afterBom(await fs.readFile((await ledgerFile.path())!)));
  expect(ledgerHeader).toEqual(["id", "timestamp", "description", "model", "rate_card_id", "change_usd"]);
  expect(ledgerRows.map((r) => r.at(-1))).toEqual(["12.340000", "-0.001234"]);
  const total = ledgerRows.reduce((sum, r) => sum + micros(r.at(-1)!), 0);
  expect(total).toBe(12_338_766);
  const balance = (await (await page.request.get("/api/v1/billing/balance")).json()) as number;
  expect(Math.round(balance * 1_000_000)).toBe(total);
});

test("on a phone the chart's day labels do not run into each other", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await seedUsage(page);
  for (const days of [7, 30, 90]) {
    await page.goto(`/usage?days=${days}`);
    const labels = await page
      .locator("[data-testid=usage-bar]")
      .first()
      .evaluate((bar) => {
        const row = bar.closest("ol")!.nextElementSibling!;
        return [...row.children]
          .filter((span) => span.textContent && getComputedStyle(span).visibility === "visible")
          .map((span) => {
            const range = document.createRange();
            range.selectNodeContents(span);
            const box = range.getBoundingClientRect();
            return { left: box.left, right: box.right };
          });
      });
    expect(labels.length, `${days} days`).toBeGreaterThan(1);
    for (let i = 1; i < labels.length; i++) expect(labels[i]!.left, `${days} days, label ${i}`).toBeGreaterThan(labels[i - 1]!.right);
    expect(labels.at(-1)!.right).toBeLessThanOrEqual(375);
  }
});

test("a ledger export whose To is before its From comes back to /billing with the reason and the dates kept", async ({ page }) => {
  await signInWithOrganization(page, "Reversed");
  await page.goto("/billing");
  const exportForm = page.getByRole("region", { name: "Export", exact: true });
  await exportForm.getByLabel("From").fill("2026-12-01");
  await exportForm.getByLabel("To").fill("2026-11-01");
  await exportForm.getByRole("button", { name: "Export ledger (CSV)" }).click();
  await expect(page).toHaveURL(/\/billing$/);
  await expect(exportForm.getByRole("alert")).toHaveText("To is before From: no day is in this range.");
  await expect(exportForm.getByLabel("From")).toHaveValue("2026-12-01");
  await expect(exportForm.getByLabel("To")).toHaveValue("2026-11-01");
  // The refusal comes back once, in a flash (decision 0139): a link can bring back no refusal, nor words of its own.
  await page.goto("/billing?exportError=Your+account+is+locked");
  await expect(page.getByRole("region", { name: "Export", exact: true }).getByRole("alert")).toHaveCount(0);
  await page.goto("/billing?exportError=reversed");
  await expect(page.getByRole("region", { name: "Export", exact: true }).getByRole("alert")).toHaveCount(0);
});

test("a member sees the same filters and can download the usage of a token", async ({ page, browser, baseURL }) => {
  const { tokenA } = await seedUsage(page);
  const code = ((await (await page.request.post("/api/v1/organizations/invites", { data: { status: "single-use" } })).json()) as { code: string }).code;
  const member = await signedInPage(browser, baseURL!, newPerson("Usage Member"));
  expect((await member.request.post(`/api/v1/auth/join/${code}`)).ok()).toBe(true);
  await member.goto("/tokens");
  await member.getByRole("link", { name: `Usage of ${tokenA} in the last 30 days` }).click();
  await expect(statValue(member, "Cost", "$3.00")).toBeVisible();
  const response = await member.request.get(`/usage.csv?token=${tokenA}`);
  expect(response.status()).toBe(200);
  expect(parseCsv(afterBom(await response.body()))).toHaveLength(3);
  await member.context().close();
});
