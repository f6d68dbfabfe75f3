import type { Page } from "@playwright/test";
import { isolate } from "~/lib/bidi";
import { API_KEY_FOR_NEW_BASE_URL } from "@contract/models";
import type { ModelConfig } from "@contract/models";
import { createOrganizationWithRequests, newPerson, OPERATOR, signInWithOrganization, signInWithRequests } from "./support/auth";
import { writeDatabase } from "./support/billing";
import { operatorPage, uniqueModelName } from "./support/system";
import { expect, hydrated, test, visibleText } from "./support/test";

/** The organization editor found at one organization: the list itself is paged, and the run makes hundreds. */
const editorFor = (orgName: string) => `/system/orgs?q=${encodeURIComponent(orgName)}`;
const modelRow = (page: Page, name: string) => page.getByRole("table", { name: "Models" }).getByRole("row").filter({ hasText: name });

/**
 * Twelve organizations named after `orgName`, made after it straight in the database (a person may make 10
 * an hour): its search lists them first, newest first, so its own row is the last, below the fold.
 */
async function seedOrganizationsAfter(orgName: string) {
  await writeDatabase(
    Array.from({ length: 12 }, (_, i) => {
      const name = `${orgName} ${String(i + 1).padStart(2, "0")}`;
      return { sql: "insert into organizations (name, name_search, created_at) values (?, ?, ?)", params: [name, name.toLowerCase(), Date.now()] };
    }),
  );
}

/** A refusal answered without JavaScript: on screen, and focused or inside what is (decision 0091). */
async function expectRefusalInFocus(page: Page, text: string) {
  await expect(page.getByText(text, { exact: true })).toBeInViewport();
  await expect(page.locator(":focus")).toContainText(text);
}

test.describe("the model editor", () => {
  test("the operator adds a model, sees it on /models, edits it and deletes it", async ({ page }) => {
    test.slow(); // one long flow across three pages
    const name = uniqueModelName();
    await signInWithRequests(page.request, OPERATOR);
    await page.goto("/model-editor");
    await expect(page.getByRole("heading", { name: "Model Editor" })).toBeVisible();
    await expect(modelRow(page, "builtin")).toContainText("Built-in development model");
    await hydrated(page);

    const form = page.getByRole("form", { name: "Add a model" });
    await form.getByLabel("Name", { exact: true }).fill(name);
    await form.getByLabel("Display name").fill(`Editor ${name}`);
    await form.getByLabel("Provider").fill("vllm");
    await form.getByLabel("Context size (tokens)").fill("65536");
    await form.getByLabel("Base URL").fill("http://127.0.0.1:9/v1");
    await form.getByLabel("Upstream model").fill("Qwen/Qwen3-8B");
    await form.getByLabel("API key", { exact: true }).fill("sk-e2e-upstream-secret");
    await form.getByLabel("Rate card id").fill(`rc-${name}`);
    await form.getByLabel("Input price").fill("0.5");
    await form.getByLabel("Output price").fill("1.5");
    await form.getByRole("button", { name: "Add model" }).click();

    await expect(page.getByText(`Model ${name} added.`)).toBeVisible();
    const row = modelRow(page, name);
    await expect(row).toContainText(`Editor ${name}`);
    await expect(row).toContainText("65,536");
    await expect(row).toContainText("Qwen/Qwen3-8B");
    await expect(row).toContainText("in $0.50 · out $1.50");
    await expect(row.getByText("Set", { exact: true })).toBeVisible();
    expect(await page.content()).not.toContain("sk-e2e-upstream-secret");
    // The form starts afresh, as the page answered without JavaScript does: what was typed is in the list now,
    // and a second Add is for another model (it was refused "A model with this name already exists").
    await expect(form.getByLabel("Name", { exact: true })).toHaveValue("");
    await expect(form.getByLabel("Display name")).toHaveValue("");
    await expect(form.getByLabel("Base URL")).toHaveValue("");
    await expect(form.getByLabel("Rate card id")).toHaveValue("");
    // Focus did not fall to the page's body with the busy button: it is in the fresh form, for the next model.
    await expect(form.getByLabel("Name", { exact: true })).toBeFocused();

    await page.goto("/models");
    await expect(page.getByRole("row").filter({ hasText: name })).toContainText(`Editor ${name}`);

    await page.goto("/model-editor");
    await modelRow(page, name)
      .getByRole("link", { name: `Edit ${name}` })
      .click();
    const edit = page.getByRole("form", { name: `Edit ${name}` });
    await expect(edit.getByLabel("Name", { exact: true })).toHaveValue(name);
    await expect(edit.getByLabel("Name", { exact: true })).toHaveAttribute("readonly", "");
    await expect(edit.getByLabel("API key", { exact: true })).toHaveValue("");
    await expect(edit.getByLabel("API key", { exact: true })).toHaveAttribute("placeholder", "Leave blank to keep the current key");
    await edit.getByLabel("Display name").fill(`Renamed ${name}`);
    await edit.getByLabel("Status override").selectOption("maintenance");
    // The kept key does not follow the model to another host: it is typed again, and nothing else is lost.
    await edit.getByLabel("Base URL").fill("http://127.0.0.1:10/v1");
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect(edit.getByText(API_KEY_FOR_NEW_BASE_URL)).toBeVisible();
    await expect(edit.getByLabel("Display name")).toHaveValue(`Renamed ${name}`);
    await expect(edit.getByLabel("Base URL")).toHaveValue("http://127.0.0.1:10/v1");
    await edit.getByLabel("API key", { exact: true }).fill("sk-e2e-upstream-secret-2");
    await edit.getByRole("button", { name: "Save changes" }).click();

    await expect(page.getByText(`Model ${name} saved.`)).toBeVisible();
    await expect(page.getByRole("form", { name: "Add a model" })).toBeVisible();
    await expect(modelRow(page, name)).toContainText(`Renamed ${name}`);
    await expect(modelRow(page, name)).toContainText("maintenance");
    await expect(modelRow(page, name).getByText("Set", { exact: true })).toBeVisible();

    await page.goto("/models");
    await expect(page.getByRole("row").filter({ hasText: name })).toContainText(`Renamed ${name}`);

    await page.goto("/model-editor");
    await hydrated(page);
    // A model half typed in the add form stays there while another is deleted from the list.
    const adding = page.getByRole("form", { name: "Add a model" });
    await adding.getByLabel("Name", { exact: true }).fill(`${name}-next`);
    // The row's button names its model (audit L): "Delete" alone would be one of many.
    await modelRow(page, name)
      .getByRole("button", { name: `Delete ${name}`, exact: true })
      .click();
    const question = page.getByRole("alertdialog", { name: `Delete the model ${name}? Chats and API calls to it stop at once.` });
    await question.getByRole("button", { name: "Yes, delete" }).click();
    await expect(page.getByText(`Model ${name} deleted.`)).toBeVisible();
    await expect(modelRow(page, name)).toHaveCount(0);
    // The row and its button are gone: focus goes to the list's heading, not the page's body.
    await expect(page.getByRole("heading", { name: "Models", exact: true })).toBeFocused();
    await expect(adding.getByLabel("Name", { exact: true })).toHaveValue(`${name}-next`);
    await page.goto("/models");
    await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
  });

  test("an edit saved after another admin changed the model is refused with what was typed kept; saving again is taken", async ({ page }) => {
    const name = uniqueModelName();
    await signInWithRequests(page.request, OPERATOR);
    const body = { displayName: `Shared ${name}`, provider: "vllm", contextSize: 8192, baseUrl: "http://127.0.0.1:9/v1" };
    expect((await page.request.put(`/api/v1/models/${name}`, { data: body })).ok()).toBe(true);

    await page.goto(`/model-editor?model=${encodeURIComponent(name)}`);
    const edit = page.getByRole("form", { name: `Edit ${name}` });
    await edit.getByLabel("Display name").fill(`Mine ${name}`);
    // Another admin reprices it meanwhile.
    const rateCard = { id: "rc-other", inputPerMillion: 3, outputPerMillion: 6 };
    expect((await page.request.put(`/api/v1/models/${name}`, { data: { ...body, rateCard } })).ok()).toBe(true);
    await edit.getByRole("button", { name: "Save changes" }).click();

    await expect(page.getByText(`Another admin saved model ${name} after you opened it. Nothing was saved.`)).toBeVisible();
    await expect(edit.getByLabel("Display name")).toHaveValue(`Mine ${name}`);
    await expect(modelRow(page, name)).toContainText(`Shared ${name}`);
    await expect(modelRow(page, name)).toContainText("$3.00");
    const stored = async () => ((await (await page.request.get("/api/v1/system/models")).json()) as { data: ModelConfig[] }).data.find((m) => m.name === name);
    expect(await stored()).toMatchObject({ displayName: `Shared ${name}`, rateCard });

    // Saving again is a deliberate choice: the form now carries the version it was refused over.
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText(`Model ${name} saved.`)).toBeVisible();
    expect(await stored()).toMatchObject({ displayName: `Mine ${name}` });
  });

  test("an edit saved after another admin deleted the model brings nothing back and keeps what was typed; the audit log names each change", async ({
    page,
  }) => {
    const name = uniqueModelName();
    await signInWithRequests(page.request, OPERATOR);
    const body = { displayName: `Stale ${name}`, provider: "vllm", contextSize: 8192, baseUrl: "http://127.0.0.1:9/v1" };
    expect((await page.request.put(`/api/v1/models/${name}`, { data: body })).ok()).toBe(true);

    await page.goto(`/model-editor?model=${encodeURIComponent(name)}`);
    const edit = page.getByRole("form", { name: `Edit ${name}` });
    await edit.getByLabel("Display name").fill(`Renamed ${name}`);
    // Another admin deletes it meanwhile.
    expect((await page.request.delete(`/api/v1/models/${name}`)).ok()).toBe(true);
    await edit.getByRole("button", { name: "Save changes" }).click();

    await expect(page.getByText(`Model ${name} no longer exists: another admin deleted it. Nothing was saved.`)).toBeVisible();
    const add = page.getByRole("form", { name: "Add a model" });
    await expect(add.getByLabel("Name", { exact: true })).toHaveValue(name);
    await expect(add.getByLabel("Display name")).toHaveValue(`Renamed ${name}`);
    const listed = (await (await page.request.get("/api/v1/models")).json()) as { data: { name: string }[] };
    expect(listed.data.map((m) => m.name)).not.toContain(name);
    // Adding it again is a deliberate choice.
    await add.getByRole("button", { name: "Add model" }).click();
    await expect(page.getByText(`Model ${name} added.`)).toBeVisible();
    await expect(modelRow(page, name)).toContainText(`Renamed ${name}`);

    // A second add of the same name is refused under the name.
    await page.goto("/model-editor");
    await add.getByLabel("Name", { exact: true }).fill(name);
    await add.getByLabel("Display name").fill("Twin");
    await add.getByLabel("Provider").fill("vllm");
    await add.getByLabel("Context size (tokens)").fill("8192");
    await add.getByLabel("Base URL").fill("http://127.0.0.1:9/v1");
    await add.getByRole("button", { name: "Add model" }).click();
    await expect(add.getByText("A model with this name already exists")).toBeVisible();
    // Focus goes to the field the refusal names, not to the form's "Check the highlighted fields.".
    await expect(add.getByLabel("Name", { exact: true })).toBeFocused();
    // A refusal keeps what was typed, beside its error.
    await expect(add.getByLabel("Name", { exact: true })).toHaveValue(name);
    await expect(add.getByLabel("Display name")).toHaveValue("Twin");
    await expect(modelRow(page, name)).toContainText(`Renamed ${name}`);

    await page.goto(`/audit?actor=${encodeURIComponent(OPERATOR.email)}`);
    const entries = page.getByRole("table").getByRole("row").filter({ hasText: name });
    await expect(entries.filter({ hasText: "Model added" })).toHaveCount(2);
    await expect(entries.filter({ hasText: "Model deleted" })).toHaveCount(1);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the form names bad fields, keeps what was typed, then adds the model", async ({ page }) => {
      test.slow(); // two full page loads per step without client navigation
      const name = uniqueModelName("e2e-nojs");
      await signInWithRequests(page.request, OPERATOR);
      await page.goto("/model-editor");
      const form = page.getByRole("form", { name: "Add a model" });
      await form.getByLabel("Name", { exact: true }).fill(name);
      await form.getByLabel("Display name").fill(`No JS ${name}`);
      await form.getByLabel("Provider").fill("vllm");
      await form.getByLabel("Input price").fill("abc");
      await form.getByRole("button", { name: "Add model" }).click();

      await expect(page.getByText("Check the highlighted fields.")).toBeVisible();
      const again = page.getByRole("form", { name: "Add a model" });
      await expect(again.getByText("An upstream model needs a base URL")).toBeVisible();
      await expect(again.getByText("Name the rate card, or leave all three prices blank")).toBeVisible();
      await expect(again.getByText("Enter a price in dollars, such as 0.50")).toBeVisible();
      await expect(again.getByLabel("Display name")).toHaveValue(`No JS ${name}`);
      await expect(again.getByLabel("Input price")).toHaveValue("abc");

      await again.getByLabel("Provider").fill("builtin");
      await again.getByLabel("Input price").fill("");
      await again.getByRole("button", { name: "Add model" }).click();
      await expect(page.getByText(`Model ${name} added.`)).toBeVisible();
      await expect(modelRow(page, name)).toContainText(`No JS ${name}`);

      await modelRow(page, name).getByRole("button", { name: "Delete" }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Yes, delete" }).click();
      await expect(page.getByText(`Model ${name} deleted.`)).toBeVisible();
    });

    test("a refused save below a long list takes focus, scrolled into view", async ({ page }) => {
      const names = Array.from({ length: 15 }, () => uniqueModelName("e2e-long-list"));
      await signInWithRequests(page.request, OPERATOR);
      try {
        for (const name of names)
          expect(
            (await page.request.put(`/api/v1/models/${name}`, { data: { displayName: `Long ${name}`, provider: "builtin", contextSize: 8192 } })).ok(),
          ).toBe(true);
        await page.goto("/model-editor");
        const form = page.getByRole("form", { name: "Add a model" });
        await form.getByLabel("Name", { exact: true }).fill(uniqueModelName("e2e-refused"));
        await form.getByLabel("Display name").fill("Refused");
        await form.getByLabel("Provider").fill("builtin");
        await form.getByLabel("Context size (tokens)").fill("32k");
        await form.getByRole("button", { name: "Add model" }).click();
        await expectRefusalInFocus(page, "Check the highlighted fields.");
        await expect(page.getByRole("form", { name: "Add a model" }).getByLabel("Context size (tokens)")).toHaveValue("32k");
      } finally {
        for (const name of names) await page.request.delete(`/api/v1/models/${name}`);
      }
    });
  });
});

test.describe("the organization editor", () => {
  test("the operator sets an organization to invoice billing, and its admin sees 'Since Last Invoice'", async ({ page, browser, baseURL }) => {
    test.slow(); // two people, two browser contexts
    const { orgId, orgName } = await signInWithOrganization(page, "Invoiced");
    await page.goto("/billing");
    await expect(page.getByRole("heading", { name: "Current Balance" })).toBeVisible();

    const operator = await operatorPage(browser, baseURL!);
    await operator.goto(editorFor(orgName));
    const row = operator.getByRole("row", { name: orgName, exact: true });
    await expect(row.getByRole("cell").first()).toHaveText(String(orgId));
    await expect(row).toContainText("$0.00");
    await expect(row.getByLabel(`Payment mode of ${orgName}`)).toHaveValue("manual");
    await expect(row.getByRole("button", { name: "Save mode" })).toHaveCount(0);
    await row.getByLabel(`Payment mode of ${orgName}`).selectOption("invoice");
    await expect(operator.getByText(`${isolate(orgName)} now uses Invoice billing.`)).toBeVisible();
    await operator.goto(editorFor(orgName));
    await expect(operator.getByRole("row", { name: orgName, exact: true }).getByLabel(`Payment mode of ${orgName}`)).toHaveValue("invoice");

    await page.goto("/billing");
    await expect(page.getByRole("heading", { name: "Since Last Invoice" })).toBeVisible();

    const renamed = `${orgName} Renamed`;
    // The row's buttons name the organization they act on; the visible words stay as they are.
    const rename = row.getByRole("button", { name: `Rename ${orgName}`, exact: true });
    expect(await visibleText(rename)).toBe("Rename");
    const grant = row.locator("summary", { hasText: "Grant credit" });
    await expect(grant).toHaveAccessibleName(`Grant credit to ${orgName}`);
    expect(await visibleText(grant)).toBe("Grant credit");
    await hydrated(operator);
    await row.getByLabel(`Name of organization ${orgId}`).fill(renamed);
    await rename.click();
    await expect(operator.getByText(`Organization ${orgId} is now called ${isolate(renamed)}.`)).toBeVisible();
    await expect(operator.getByRole("row", { name: renamed, exact: true })).toHaveCount(1);
    // The form came back afresh under the new name: the focus the click gave its button is on the new one.
    await expect(operator.getByRole("row", { name: renamed, exact: true }).getByRole("button", { name: `Rename ${renamed}`, exact: true })).toBeFocused();

    // A name the search no longer finds takes the row, and its button, away: the list's heading takes focus.
    await operator.goto(editorFor(renamed));
    await hydrated(operator);
    const gone = `Gone ${Date.now()}`;
    const renamedRow = operator.getByRole("row", { name: renamed, exact: true });
    await renamedRow.getByLabel(`Name of organization ${orgId}`).fill(gone);
    await renamedRow.getByRole("button", { name: `Rename ${renamed}`, exact: true }).click();
    await expect(operator.getByText(`Organization ${orgId} is now called ${isolate(gone)}.`)).toBeVisible();
    await expect(operator.getByRole("row", { name: gone })).toHaveCount(0);
    await expect(operator.getByRole("heading", { name: "Organizations", level: 2 })).toBeFocused();
    await operator.context().close();
  });

  test("the operator finds organizations by name or id, a page of 25 at a time, newest first", async ({ page, browser, baseURL, playwright }) => {
    test.slow(); // 26 organizations made first
    const { orgName, orgId } = await signInWithOrganization(page, "Paged");
    const made: string[] = [];
    // A person may create 10 organizations an hour: three people make the 25 more.
    for (let person = 0; person < 3; person++) {
      const request = person === 0 ? page.request : await playwright.request.newContext({ baseURL });
      if (person > 0) await signInWithRequests(request, newPerson(`Paged${person}`));
      for (let i = 0; i < (person === 2 ? 7 : 9); i++) {
        made.push(`${orgName} ${String(made.length + 1).padStart(2, "0")}`);
        await createOrganizationWithRequests(request, made[made.length - 1]!);
      }
    }
    expect(made).toHaveLength(25);
    const operator = await operatorPage(browser, baseURL!);
    await operator.goto("/system/orgs");
    const search = operator.getByRole("search", { name: "Find organizations" });
    await search.getByLabel("Find an organization").fill(orgName.toUpperCase());
    await search.getByLabel("Find an organization").press("Enter");
    await expect(operator).toHaveURL(/\?q=/);
    const rows = operator.getByRole("table", { name: "Organizations" }).getByRole("row");
    // The header, then the newest 25 of the 26 that match.
    await expect(rows).toHaveCount(26);
    await expect(rows.nth(1)).toHaveAccessibleName(made[24]!);
    await expect(operator.getByRole("row", { name: orgName, exact: true })).toHaveCount(0);
    await expect(search.getByLabel("Find an organization")).toHaveValue(orgName.toUpperCase());

    const pages = operator.getByRole("navigation", { name: "Organization pages" });
    await pages.getByRole("link", { name: "Older organizations" }).click();
    await expect(rows).toHaveCount(2);
    await expect(operator.getByRole("row", { name: orgName, exact: true })).toHaveCount(1);
    await expect(pages.getByRole("link", { name: "Older organizations" })).toHaveCount(0);
    await pages.getByRole("link", { name: "Newest" }).click();
    await expect(rows).toHaveCount(26);

    await search.getByLabel("Find an organization").fill(String(orgId));
    await search.getByRole("button", { name: "Search" }).click();
    await expect(operator.getByRole("row", { name: orgName, exact: true })).toHaveCount(1);
    await search.getByLabel("Find an organization").fill(`${orgName} nothing`);
    await search.getByLabel("Find an organization").press("Enter");
    await expect(operator.getByText(`No organization's name or ID matches "${orgName} nothing".`)).toBeVisible();
    await operator.getByRole("link", { name: "Show all" }).click();
    await expect(operator).toHaveURL(/\/system\/orgs$/);

    // An organization's id leads to its audit log.
    await search.getByLabel("Find an organization").fill(orgName);
    await search.getByLabel("Find an organization").press("Enter");
    await pages.getByRole("link", { name: "Older organizations" }).click();
    await operator.getByRole("link", { name: `Audit log of ${orgName} (#${orgId})` }).click();
    await expect(operator).toHaveURL(new RegExp(`/audit\\?organization=${orgId}$`));
    await expect(operator.getByRole("heading", { name: `Entries of ${orgName} (#${orgId})` })).toBeVisible();
    await operator.context().close();
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the payment mode has a submit button, and a blank name is refused with the typed text kept", async ({ page, browser, baseURL }) => {
      const { orgId, orgName } = await signInWithOrganization(page, "NoJsOrg");
      const operator = await operatorPage(browser, baseURL!, { javaScriptEnabled: false });
      await operator.goto(editorFor(orgName));
      const row = operator.getByRole("row", { name: orgName, exact: true });
      await row.getByLabel(`Payment mode of ${orgName}`).selectOption("auto");
      await row.getByRole("button", { name: `Save mode of ${orgName}`, exact: true }).click();
      await expect(operator.getByText(`${isolate(orgName)} now uses Auto-reload (prepaid) billing.`)).toBeVisible();
      await expect(operator.getByRole("row", { name: orgName, exact: true }).getByLabel(`Payment mode of ${orgName}`)).toHaveValue("auto");

      const again = operator.getByRole("row", { name: orgName, exact: true });
      await again.getByLabel(`Name of organization ${orgId}`).fill("   ");
      await again.getByRole("button", { name: "Rename" }).click();
      const refused = operator.getByRole("row", { name: orgName, exact: true });
      await expect(refused.getByText("Organization name is required")).toBeVisible();
      await expect(refused.getByLabel(`Name of organization ${orgId}`)).toHaveValue("   ");
      await operator.context().close();
    });

    test("a refusal in the last row of a long page takes focus, scrolled into view", async ({ page, browser, baseURL }) => {
      const { orgId, orgName } = await signInWithOrganization(page, "NoJsFarRow");
      await seedOrganizationsAfter(orgName);
      const operator = await operatorPage(browser, baseURL!, { javaScriptEnabled: false });
      await operator.goto(editorFor(orgName));
      const rows = operator.getByRole("table", { name: "Organizations" }).getByRole("row");
      await expect(rows).toHaveCount(14);
      await expect(rows.last()).toHaveAccessibleName(orgName);

      await rows.last().getByLabel(`Name of organization ${orgId}`).fill("   ");
      await rows.last().getByRole("button", { name: "Rename" }).click();
      await expectRefusalInFocus(operator, "Organization name is required");
      // Tab goes on into the field to correct.
      await operator.keyboard.press("Tab");
      await expect(operator.getByLabel(`Name of organization ${orgId}`)).toBeFocused();

      await rows.last().locator("summary", { hasText: "Grant credit" }).click();
      const form = rows.last().getByRole("form", { name: `Grant credit to ${orgName}` });
      await form.getByLabel("Amount (USD)").fill("5");
      await form.getByLabel("Reason").fill("   ");
      await form.getByRole("button", { name: "Grant", exact: true }).click();
      await expectRefusalInFocus(operator, "Enter a reason");

      // The platform's refusal of a reversal (nothing was granted) takes focus the same way.
      await rows.last().locator("summary", { hasText: "Reverse credit" }).click();
      const reversing = rows.last().getByRole("form", { name: `Reverse credit of ${orgName}` });
      await reversing.getByLabel("Amount to take back (USD)").fill("5");
      await reversing.getByLabel("Reason").fill("Granted twice");
      await reversing.getByRole("button", { name: `Take back credit from ${orgName}` }).click();
      await operator.getByRole("button", { name: "Yes, take it back" }).click();
      await expectRefusalInFocus(operator, "No granted credit is left to reverse");
      await operator.context().close();
    });
  });
});

test("a member of another organization is kept out of the system calls", async ({ page }) => {
  await signInWithOrganization(page, "Outsider");
  expect((await page.request.get("/api/v1/system/organizations")).status()).toBe(403);
  expect((await page.request.get("/api/v1/system/models")).status()).toBe(403);
  await page.goto("/system/orgs");
  await expect(page).toHaveURL(/\/team$/);
});

test("a system page's form posted after its user left the system organization changes nothing, and says why", async ({ page, browser, baseURL }) => {
  test.slow(); // two people, two browser contexts
  const { orgName, person } = await signInWithOrganization(page, "LeftSystem");
  const operator = await operatorPage(browser, baseURL!);
  const invite = await operator.request.post("/api/v1/organizations/invites", { data: { status: "single-use" } });
  const { code } = (await invite.json()) as { code: string };
  expect((await page.request.post(`/api/v1/auth/join/${code}`)).ok()).toBe(true);
  // Only the system organization's admins see its editing forms.
  const members = (await (await operator.request.get("/api/v1/organizations/members")).json()) as { id: number; email: string }[];
  const me = members.find((m) => m.email === person.email)!;
  expect((await operator.request.put(`/api/v1/organizations/members/${me.id}`, { data: { role: "admin" } })).ok()).toBe(true);
  expect((await page.request.post("/api/v1/auth/switch", { data: { organizationId: 1 } })).ok()).toBe(true);
  await page.goto(editorFor(orgName));
  const row = page.getByRole("row", { name: orgName, exact: true });
  await expect(row.getByRole("textbox")).toBeVisible();

  expect((await operator.request.delete(`/api/v1/organizations/members/${me.id}`)).ok()).toBe(true);

  await row.getByRole("textbox").fill(`${orgName} Renamed`);
  await row.getByRole("button", { name: `Rename ${orgName}`, exact: true }).click();
  await expect(page).toHaveURL(/\/team$/);
  await expect(
    page.getByRole("alert").filter({ hasText: "Nothing was changed: you are no longer a member of the organization this page was for." }),
  ).toBeVisible();
  await page.goto("/team");
  await expect(page.getByText(`${orgName} Renamed`)).toHaveCount(0);
  await operator.context().close();
});

test.describe("granting credit", () => {
  test("the operator grants credit in the organization editor and the organization's balance rises", async ({ page, browser, baseURL }) => {
    test.slow(); // two people, two browser contexts
    const { orgName } = await signInWithOrganization(page, "Granted");
    const operator = await operatorPage(browser, baseURL!);
    await operator.goto(editorFor(orgName));
    await hydrated(operator);
    const row = operator.getByRole("row", { name: orgName, exact: true });
    await expect(row).toContainText("$0.00");
    await row.locator("summary", { hasText: "Grant credit" }).click();
    const form = row.getByRole("form", { name: `Grant credit to ${orgName}` });
    // On a desktop screen the open form and the organization's name are both in view (the credit column is pinned).
    await form.getByRole("button", { name: "Grant", exact: true }).scrollIntoViewIfNeeded();
    await expect(form.getByRole("button", { name: "Grant", exact: true })).toBeInViewport({ ratio: 1 });
    await expect(row.locator("td").nth(1)).toBeInViewport({ ratio: 1 });
    await form.getByLabel("Amount (USD)").fill("12.5");
    await form.getByLabel("Reason").fill("Welcome trial");
    await form.getByLabel("Reason").press("Enter");
    await expect(operator.getByText(`Granted $12.50 to ${isolate(orgName)}: Credit: Welcome trial. Balance $12.50.`)).toBeVisible();
    await expect(operator.getByRole("row", { name: orgName, exact: true })).toContainText("$12.50");
    // The form closed afresh, and the focus it took with it is on its disclosure, not the page's body.
    await expect(form).toBeHidden();
    await expect(row.locator("summary", { hasText: "Grant credit" })).toBeFocused();

    await page.goto("/billing");
    await expect(page.getByTestId("balance")).toHaveText("$12.50");
    await expect(page.getByRole("row").filter({ hasText: "Credit: Welcome trial" })).toContainText("+$12.50");
    await operator.context().close();
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("a blank reason is refused with the amount kept, then the credit is granted", async ({ page, browser, baseURL }) => {
      const { orgName } = await signInWithOrganization(page, "GrantedNoJs");
      const operator = await operatorPage(browser, baseURL!, { javaScriptEnabled: false });
      await operator.goto(editorFor(orgName));
      const row = operator.getByRole("row", { name: orgName, exact: true });
      await row.locator("summary", { hasText: "Grant credit" }).click();
      const form = row.getByRole("form", { name: `Grant credit to ${orgName}` });
      await form.getByLabel("Amount (USD)").fill("5");
      await form.getByLabel("Reason").fill("   ");
      await form.getByRole("button", { name: "Grant", exact: true }).click();

      const refused = operator.getByRole("row", { name: orgName, exact: true }).getByRole("form", { name: `Grant credit to ${orgName}` });
      await expect(refused.getByText("Enter a reason")).toBeVisible();
      await expect(refused.getByLabel("Amount (USD)")).toHaveValue("5");
      await refused.getByLabel("Reason").fill("Trial");
      await refused.getByRole("button", { name: "Grant", exact: true }).click();
      await expect(operator.getByText(`Granted $5.00 to ${isolate(orgName)}: Credit: Trial. Balance $5.00.`)).toBeVisible();
      await expect(operator.getByRole("row", { name: orgName, exact: true })).toContainText("$5.00");
      await operator.context().close();
    });
  });
});

test.describe("reversing credit", () => {
  /** The operator grants `amount` to the organization through the platform, as the editor's grant form does. */
  async function grant(operator: Page, orgId: number, amount: number) {
    const response = await operator.request.post(`/api/v1/system/organizations/${orgId}/credits`, { data: { amount, reason: "Trial" } });
    expect(response.status()).toBe(200);
  }

  test("the operator grants, then takes part of it back after confirming, and the balance shown falls", async ({ page, browser, baseURL }) => {
    test.slow(); // two people, two browser contexts
    const { orgName } = await signInWithOrganization(page, "Reversed");
    const operator = await operatorPage(browser, baseURL!);
    await operator.goto(editorFor(orgName));
    await hydrated(operator);
    const row = () => operator.getByRole("row", { name: orgName, exact: true });
    await row().locator("summary", { hasText: "Grant credit" }).click();
    const granting = row().getByRole("form", { name: `Grant credit to ${orgName}` });
    await granting.getByLabel("Amount (USD)").fill("20");
    await granting.getByLabel("Reason").fill("Welcome trial");
    await granting.getByRole("button", { name: "Grant", exact: true }).click();
    await expect(operator.getByText(`Granted $20.00 to ${isolate(orgName)}: Credit: Welcome trial. Balance $20.00.`)).toBeVisible();

    const summary = row().locator("summary", { hasText: "Reverse credit" });
    await expect(summary).toHaveAccessibleName(`Reverse credit of ${orgName}`);
    await summary.click();
    const form = row().getByRole("form", { name: `Reverse credit of ${orgName}` });
    await expect(form).toContainText("Balance: $20.00");
    // Nothing typed yet: the fields' errors show, not a question.
    await form.getByRole("button", { name: `Take back credit from ${orgName}` }).click();
    await expect(form.getByText("Enter an amount")).toBeVisible();
    await expect(operator.getByRole("alertdialog")).toHaveCount(0);

    await form.getByLabel("Amount to take back (USD)").fill("7.5");
    await form.getByLabel("Reason").fill("Granted twice");
    // Enter in a field never skips the question.
    await form.getByLabel("Reason").press("Enter");
    await expect(operator.getByRole("alertdialog")).toHaveCount(0);
    // From the keyboard: the question opens on Cancel, so Enter alone can't confirm it.
    await form.getByRole("button", { name: `Take back credit from ${orgName}` }).focus();
    await operator.keyboard.press("Enter");
    const question = operator.getByRole("alertdialog", {
      name: `Take $7.50 back from ${isolate(orgName)}? Its balance is $20.00; only a new grant gives it back.`,
    });
    await expect(question.getByRole("button", { name: "Cancel" })).toBeFocused();
    await operator.keyboard.press("Tab");
    await expect(question.getByRole("button", { name: "Yes, take it back" })).toBeFocused();
    await operator.keyboard.press("Enter");
    await expect(operator.getByText(`Took back $7.50 from ${isolate(orgName)}: Credit reversed: Granted twice. Balance $12.50.`)).toBeVisible();
    await expect(row().getByTestId(/^balance-/)).toHaveText("$12.50");
    await expect(row().locator("summary", { hasText: "Reverse credit" })).toBeFocused();

    // More than the credit left: the refusal is the amount's, and what was typed stays.
    await row().locator("summary", { hasText: "Reverse credit" }).click();
    await expect(form).toContainText("Balance: $12.50");
    await form.getByLabel("Amount to take back (USD)").fill("50");
    await form.getByLabel("Reason").fill("Too much");
    await form.getByRole("button", { name: `Take back credit from ${orgName}` }).click();
    await operator.getByRole("alertdialog").getByRole("button", { name: "Yes, take it back" }).click();
    await expect(form.getByText("Only $12.50 of granted credit is left to reverse")).toBeVisible();
    await expect(form.getByLabel("Amount to take back (USD)")).toHaveValue("50");
    await expect(form.getByLabel("Reason")).toHaveValue("Too much");
    await expect(row().getByTestId(/^balance-/)).toHaveText("$12.50");

    await page.goto("/billing");
    await expect(page.getByTestId("balance")).toHaveText("$12.50");
    await expect(page.getByRole("row").filter({ hasText: "Credit reversed: Granted twice" })).toContainText("-$7.50");
    await operator.context().close();
  });

  test("on a phone the form, its balance and the question fit the screen", async ({ page, browser, baseURL }) => {
    const { orgName, orgId } = await signInWithOrganization(page, "ReversedPhone");
    const operator = await operatorPage(browser, baseURL!);
    await operator.setViewportSize({ width: 375, height: 740 });
    await grant(operator, orgId, 10);
    await operator.goto(editorFor(orgName));
    await hydrated(operator);
    const row = operator.getByRole("row", { name: orgName, exact: true });
    await row.locator("summary", { hasText: "Reverse credit" }).click();
    const form = row.getByRole("form", { name: `Reverse credit of ${orgName}` });
    const takeBack = form.getByRole("button", { name: `Take back credit from ${orgName}` });
    await form.getByLabel("Amount to take back (USD)").fill("4");
    await form.getByLabel("Reason").fill("Mistake");
    await takeBack.scrollIntoViewIfNeeded();
    // The table scrolls sideways inside its card; the form's full-width parts may end a fraction of a pixel past it.
    await expect(form.getByText("Balance: $10.00")).toBeInViewport({ ratio: 0.95 });
    await expect(takeBack).toBeInViewport({ ratio: 0.95 });
    await takeBack.click();
    const question = operator.getByRole("alertdialog");
    await expect(question).toBeInViewport({ ratio: 1 });
    await operator.screenshot({ path: "/tmp/wtC-phone.png" });
    await question.getByRole("button", { name: "Yes, take it back" }).click();
    await expect(operator.getByText(`Took back $4.00 from ${isolate(orgName)}: Credit reversed: Mistake. Balance $6.00.`)).toBeVisible();
    await operator.context().close();
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the question still comes first, a refused amount keeps what was typed, then the credit is taken back", async ({ page, browser, baseURL }) => {
      const { orgName, orgId } = await signInWithOrganization(page, "ReversedNoJs");
      const operator = await operatorPage(browser, baseURL!, { javaScriptEnabled: false });
      await grant(operator, orgId, 10);
      await operator.goto(editorFor(orgName));
      const row = () => operator.getByRole("row", { name: orgName, exact: true });
      await row().locator("summary", { hasText: "Reverse credit" }).click();
      const form = () => row().getByRole("form", { name: `Reverse credit of ${orgName}` });
      await form().getByLabel("Amount to take back (USD)").fill("10.01");
      await form().getByLabel("Reason").fill("Granted twice");
      await form()
        .getByRole("button", { name: `Take back credit from ${orgName}` })
        .click();
      await operator.getByRole("alertdialog").getByRole("button", { name: "Yes, take it back" }).click();

      await expect(form().getByText("Only $10.00 of granted credit is left to reverse")).toBeVisible();
      await expect(form().getByLabel("Amount to take back (USD)")).toHaveValue("10.01");
      await expect(form().getByLabel("Reason")).toHaveValue("Granted twice");
      await form().getByLabel("Amount to take back (USD)").fill("10");
      await form()
        .getByRole("button", { name: `Take back credit from ${orgName}` })
        .click();
      await operator.getByRole("alertdialog").getByRole("button", { name: "Yes, take it back" }).click();
      await expect(operator.getByText(`Took back $10.00 from ${isolate(orgName)}: Credit reversed: Granted twice. Balance $0.00.`)).toBeVisible();
      await expect(row().getByTestId(/^balance-/)).toHaveText("$0.00");
      await operator.context().close();
    });
  });
});
