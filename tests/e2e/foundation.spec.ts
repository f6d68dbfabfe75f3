import { expect, hydrated, test } from "./support/test";
import { createOrganizationWithRequests, newPerson, OPERATOR, signInThroughPages, signInWithOrganization, signInWithRequests } from "./support/auth";
import { switchOrganization } from "./support/team";

test("sign in through the development page, create an organization, sign out, and come back to /team", async ({ page }) => {
  const person = newPerson("Founder");
  await page.goto("/login");
  await expect(page.getByText("Sign in to continue")).toBeVisible();
  await expect(page.getByRole("link", { name: "Terms of Service" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Privacy Policy" })).toBeVisible();
  await expect(page.getByText(/anyone who can reach this server can sign in as anyone/)).toBeVisible();
  await signInThroughPages(page, person);

  await expect(page).toHaveURL(/\/welcome$/);
  await expect(page.getByRole("heading", { name: `Welcome, ${person.name}` })).toBeVisible();
  await expect(page.getByText(person.email)).toBeVisible();
  await expect(page.getByText("Choose a name for your organization")).toBeVisible();
  await expect(page.getByText("Enter the invite code provided by your organization")).toBeVisible();
  const create = page.getByRole("button", { name: "Create Organization" });
  await expect(create).toBeDisabled();
  await page.getByPlaceholder("My Organization").fill("   ");
  await expect(create).toBeDisabled();
  await page.getByPlaceholder("My Organization").fill("  Founders Inc  ");
  await create.click();

  await expect(page).toHaveURL(/\/team$/);
  await expect(page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "API Tokens" })).toBeVisible();
  await expect(page.getByText("Founders Inc")).toBeVisible();

  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/team");
  await expect(page).toHaveURL(/\/login$/);

  await signInThroughPages(page, person, "Google");
  await expect(page).toHaveURL(/\/team$/);
});

test("a second user joins with an invite code and lands on /team", async ({ page, browser }) => {
  await signInWithOrganization(page, "Inviter");
  const invite = await page.request.post("/api/v1/organizations/invites", { data: { status: "single-use" } });
  const { code } = (await invite.json()) as { code: string };

  const context = await browser.newContext();
  await context.addCookies([{ name: "CH-time-zone", value: "UTC", url: test.info().project.use.baseURL! }]);
  const second = await context.newPage();
  await signInWithRequests(second.request, newPerson("Joiner"));
  await second.goto("/welcome");
  const join = second.getByRole("button", { name: "Join Organization" });
  await expect(join).toBeDisabled();
  await second.getByPlaceholder("Enter invite code").fill("WRONGCODE234");
  await join.click();
  await expect(second.getByRole("alert")).toHaveText("This invite code is invalid or has already been used");
  await expect(second.getByPlaceholder("Enter invite code")).toHaveValue("WRONGCODE234");
  // The keyboard is back in the field to correct it, not on the page's body.
  await expect(second.getByPlaceholder("Enter invite code")).toBeFocused();
  await second.getByPlaceholder("Enter invite code").fill(` ${code} `);
  await join.click();
  await expect(second).toHaveURL(/\/team$/);
  await context.close();
});

test("the organization switcher appears with two organizations and switches the active one", async ({ page }) => {
  const { orgName } = await signInWithOrganization(page, "Switcher");
  await page.goto("/team");
  await expect(page.getByLabel("Active organization")).toHaveCount(0);
  await createOrganizationWithRequests(page.request, "Second Org");
  await page.goto("/team");
  const switcher = page.getByLabel("Active organization");
  await expect(switcher).toBeVisible();
  await expect(switcher.locator("option:checked")).toHaveText("Second Org");
  await switchOrganization(page, orgName);
  await expect(page).toHaveURL(/\/team$/);
  await expect(page.getByLabel("Active organization").locator("option:checked")).toHaveText(orgName);
  const session = await (await page.request.get("/api/v1/auth/session")).json();
  expect(session.activeOrganization.name).toBe(orgName);
});

test("a signed-out visit to /billing goes to /login and returns to /billing after sign-in", async ({ page }) => {
  const person = newPerson("Returner");
  await signInWithRequests(page.request, person);
  await createOrganizationWithRequests(page.request, "Return Co");
  await page.request.post("/api/v1/auth/logout");
  await page.goto("/billing?tab=ledger");
  await expect(page).toHaveURL(/\/login$/);
  await signInThroughPages(page, person, "GitHub");
  // GitHub is a different provider account: a new user with no organization. Sign in with Google instead.
  await expect(page).toHaveURL(/\/(welcome|billing)/);
  await page.request.post("/api/v1/auth/logout");
  await page.goto("/billing?tab=ledger");
  await expect(page).toHaveURL(/\/login$/);
  await signInThroughPages(page, person, "Google");
  await expect(page).toHaveURL(/\/billing\?tab=ledger$/);
});

test("a redirectTo of //evil.example is ignored", async ({ page }) => {
  const person = newPerson("Careful");
  await signInWithRequests(page.request, person);
  await createOrganizationWithRequests(page.request, "Careful Co");
  await page.request.post("/api/v1/auth/logout");
  await page.goto("/login?redirectTo=//evil.example");
  await signInThroughPages(page, person);
  await expect(page).toHaveURL(/localhost:\d+\/team$/);
});

test("system pages: a member of another organization goes to /team, the system admin sees the System section", async ({ page, browser }) => {
  await signInWithOrganization(page, "Ordinary");
  await page.goto("/system/orgs");
  await expect(page).toHaveURL(/\/team$/);
  await page.goto("/model-editor");
  await expect(page).toHaveURL(/\/team$/);
  await expect(page.getByRole("navigation", { name: "System" })).toHaveCount(0);

  const context = await browser.newContext();
  await context.addCookies([{ name: "CH-time-zone", value: "UTC", url: test.info().project.use.baseURL! }]);
  const operator = await context.newPage();
  await signInWithRequests(operator.request, OPERATOR);
  await operator.goto("/team");
  const system = operator.getByRole("navigation", { name: "System" });
  await expect(system.getByRole("link", { name: "Model Editor" })).toBeVisible();
  await system.getByRole("link", { name: "Org Editor" }).click();
  await expect(operator).toHaveURL(/\/system\/orgs$/);
  await context.close();
});

test("a cross-origin POST is refused by the console and by the platform", async ({ page }) => {
  await signInWithOrganization(page, "Target");
  const consoleAction = await page.request.post("/switch-organization", {
    form: { organizationId: "1" },
    headers: { origin: "http://evil.example" },
    maxRedirects: 0,
  });
  expect(consoleAction.status()).toBe(403);
  const platformCall = await page.request.post("/api/v1/organizations", { data: { name: "Evil" }, headers: { origin: "http://evil.example" } });
  expect(platformCall.status()).toBe(403);
  const logout = await page.request.post("/logout", { headers: { origin: "http://evil.example" }, maxRedirects: 0 });
  expect(logout.status()).toBe(403);
  expect((await (await page.request.get("/api/v1/auth/session")).json()).valid).toBe(true);
});

test("the home page shows the six categories with their counts", async ({ page }) => {
  await signInWithOrganization(page, "Home");
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Try AI Models" })).toBeVisible();
  for (const [label, count, href] of [
    ["Chat", 15, "/chat"],
    ["Image", 12, "/playground/image"],
    ["Audio", 8, "/playground/audio"],
    ["Video", 6, "/playground/video"],
    ["Workflows", 5, "/playground/workflows"],
    ["Data", 4, "/playground/data"],
  ] as const) {
    const card = page.getByRole("link", { name: new RegExp(`^${label}`) }).filter({ hasText: `${count} models` });
    await expect(card).toHaveAttribute("href", href);
  }
});

test("after 5 minutes without activity a signed-out session goes to /login", async ({ page }) => {
  await page.clock.install();
  await signInWithOrganization(page, "Idle");
  await page.goto("/team");
  await expect(page.getByRole("heading", { name: "Team", exact: true })).toBeVisible();
  // The check is armed once React has hydrated the page.
  await hydrated(page);
  await page.request.post("/api/v1/auth/logout");
  await page.clock.runFor(299_000);
  await expect(page).toHaveURL(/\/team$/);
  await page.clock.runFor(2_000);
  // The page is remembered, as for any signed-out visit.
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fteam$/);
});

// Pages whose loaders defer nothing are rendered whole; /models streams its table (decision 0087,
// fifth pass). Either way the document is in standards mode, with its hydration data, and hydrates.
test("a page rendered whole and a page that streams are both standards-mode documents that hydrate", async ({ page }) => {
  await signInWithOrganization(page, "Docs");
  for (const path of ["/team", "/models"]) {
    const response = await page.request.get(path);
    expect(response.headers()["content-type"]).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(html).toContain("window.__remixContext.streamController.close()");
  }
  // React reports markup it could not hydrate as an error (the sidebar's lists come from kept markup:
  // decision 0087, eleventh pass).
  const errors: string[] = [];
  page.on("console", (message) => void (message.type() === "error" && errors.push(message.text())));
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto("/team");
  expect(await page.evaluate(() => document.compatMode)).toBe("CSS1Compat");
  await expect.poll(() => page.evaluate(() => Object.keys(document.getElementById("main") ?? {}).some((key) => key.startsWith("__reactFiber")))).toBe(true);
  // A client-side navigation keeps the window: the page hydrated and its router runs.
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  await page.getByRole("link", { name: "Models", exact: true }).click();
  await expect(page.getByRole("row", { name: /builtin/ })).toContainText("Built-in development model");
  expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
  await expect(page.getByRole("link", { name: "Models", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("link", { name: "Team", exact: true })).not.toHaveAttribute("aria-current");
  await page.getByRole("link", { name: "API Tokens", exact: true }).click();
  await expect(page).toHaveURL(/\/tokens$/);
  expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
  await expect(page.getByRole("link", { name: "API Tokens", exact: true })).toHaveAttribute("aria-current", "page");
  expect(errors).toEqual([]);
  // Icons hand React their shapes as one piece of markup (decision 0087, seventh pass): drawn by the
  // server (the sidebar) or by the client (this page's), every shape is an SVG one, and they show.
  const shapesPerIcon = await page.evaluate(() =>
    [...document.querySelectorAll("svg.lucide")].map((icon) => [...icon.children].filter((shape) => shape instanceof SVGGeometryElement).length),
  );
  expect(shapesPerIcon.length).toBeGreaterThan(10);
  expect(shapesPerIcon.every((count) => count > 0)).toBe(true);
  await expect(page.getByRole("link", { name: "Team", exact: true }).locator("svg > *").first()).toBeVisible();
  await expect(page.locator("#main svg.lucide > *").first()).toBeVisible();
});

// The server keeps a form's first-state markup and writes it into later documents (decision 0119): such
// a page hydrates as if rendered afresh, and its forms work.
test("pages whose forms come from kept markup hydrate, and the forms work", async ({ page }) => {
  await signInWithOrganization(page, "Kept");
  const errors: string[] = [];
  page.on("console", (message) => void (message.type() === "error" && errors.push(message.text())));
  page.on("pageerror", (error) => errors.push(error.message));
  const hydrated = () => page.evaluate(() => Object.keys(document.getElementById("main") ?? {}).some((key) => key.startsWith("__reactFiber")));
  for (const path of ["/tokens", "/team", "/billing"]) {
    // The first document keeps the forms' markup; the page below is written from it.
    expect((await page.request.get(path)).ok()).toBe(true);
    await page.goto(path);
    await expect.poll(hydrated).toBe(true);
  }

  await page.goto("/tokens");
  await expect.poll(hydrated).toBe(true);
  const create = page.getByRole("region", { name: "Create API token" });
  await expect(create.getByLabel("Expiry")).toHaveValue("30");
  await create.getByLabel("Expiry").selectOption("7");
  await create.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByRole("region", { name: "Token created" })).toContainText("you will not see it again");

  await page.goto("/team");
  await expect.poll(hydrated).toBe(true);
  await page.getByRole("button", { name: "Single-use invite" }).click();
  await expect(page.getByRole("status", { name: "Invite code" })).toContainText("single-use");

  await page.goto("/billing");
  await expect.poll(hydrated).toBe(true);
  await page.getByLabel("Monthly spend cap (USD)").fill("50");
  await page.getByRole("button", { name: "Save cap" }).click();
  await expect(page.getByText("Spent this month (UTC): $0.00 of $50.00.")).toBeVisible();
  expect(errors).toEqual([]);
});

// Each document names and preloads the route modules the browser loads to hydrate it, and links the
// stylesheet: the server writes the modules' script once per path and set of routes, and the head's
// links once per set of routes (patches/, decision 0087's eleventh pass).
test("every page's document names its own route modules, however often pages are served", async ({ page }) => {
  await signInWithOrganization(page, "Modules");
  const routesOf = () =>
    page.evaluate(() => {
      const w = window as unknown as { __remixRouteModules: object; __remixManifest: { routes: Record<string, { module: string }> } };
      const modules = Object.keys(w.__remixRouteModules);
      return { modules, manifest: Object.keys(w.__remixManifest.routes), files: modules.map((id) => w.__remixManifest.routes[id].module) };
    });
  const pages = [
    ["/team", "routes/_org.team"],
    ["/tokens", "routes/_org.tokens"],
    ["/playground/text", "routes/_org.playground.$category._index"],
    ["/playground/image", "routes/_org.playground.$category._index"],
    ["/no-such-page", "routes/_org.$"],
    ["/team", "routes/_org.team"],
  ];
  for (const [path, route] of pages) {
    // The document as served (once hydrated, Remix takes its preload links out of the page).
    const html = await (await page.request.get(path)).text();
    await page.goto(path);
    const { modules, manifest, files } = await routesOf();
    expect(modules).toEqual(["root", "routes/_org", route]);
    expect(manifest).toEqual(expect.arrayContaining(modules));
    for (const file of files) expect(html).toContain(`<link rel="modulepreload" href="${file}"/>`);
    expect(html.match(/<link rel="stylesheet"/g)).toHaveLength(1);
    expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml"/>');
    await expect.poll(() => page.evaluate(() => Object.keys(document.getElementById("main") ?? {}).some((key) => key.startsWith("__reactFiber")))).toBe(true);
  }
});

// Each document names its own routes, and the browser asks for the others as their links appear (lazy
// route discovery, decision 0119): the whole manifest up front took /login's JavaScript past DESIGN §7's
// budget.
test("a page names its own routes, and the browser learns the others as their links appear", async ({ page }) => {
  await signInWithOrganization(page, "Routes");
  const asked: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/__manifest") asked.push(request.url());
  });
  const html = await (await page.request.get("/team")).text();
  expect(html).toContain("window.__remixManifest");
  expect(html).not.toContain('"routes/_org.billing"');
  await page.goto("/team");
  await expect.poll(() => page.evaluate(() => Object.keys(document.getElementById("main") ?? {}).some((key) => key.startsWith("__reactFiber")))).toBe(true);
  const known = () => page.evaluate(() => Object.keys((window as unknown as { __remixManifest: { routes: object } }).__remixManifest.routes));
  // The sidebar links to Billing and Usage; nothing on the page links to the system's model editor.
  await expect.poll(known).toEqual(expect.arrayContaining(["routes/_org.team", "routes/_org.billing", "routes/_org.usage"]));
  expect(await known()).not.toContain("routes/_org._system.model-editor");
  expect(asked.length).toBeGreaterThan(0);

  await page.getByRole("link", { name: "Billing", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Billing", level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "Usage", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Usage", level: 1 })).toBeVisible();
});

test.describe("with JavaScript disabled", () => {
  test.use({ javaScriptEnabled: false });

  test("both onboarding forms work", async ({ page }) => {
    await signInWithRequests(page.request, newPerson("NoScript"));
    await page.goto("/welcome");
    // Blank input is refused by the server with a message, and nothing is created.
    await page.getByPlaceholder("My Organization").evaluate((el) => el.removeAttribute("required"));
    await page.getByRole("button", { name: "Create Organization" }).click();
    await expect(page.getByRole("alert")).toHaveText("Enter a name for your organization");
    await page.getByPlaceholder("My Organization").fill("Plain HTML Co");
    await page.getByRole("button", { name: "Create Organization" }).click();
    await expect(page).toHaveURL(/\/team$/);
    const invite = await page.request.post("/api/v1/organizations/invites", { data: { status: "multi-use" } });
    const { code } = (await invite.json()) as { code: string };

    await page.context().clearCookies();
    await signInWithRequests(page.request, newPerson("NoScript Joiner"));
    await page.goto("/welcome");
    await page.getByPlaceholder("Enter invite code").fill("NOTACODE");
    await page.getByRole("button", { name: "Join Organization" }).click();
    await expect(page.getByRole("alert")).toHaveText("This invite code is invalid or has already been used");
    await expect(page.getByPlaceholder("Enter invite code")).toHaveValue("NOTACODE");
    await page.getByPlaceholder("Enter invite code").fill(code);
    await page.getByRole("button", { name: "Join Organization" }).click();
    await expect(page).toHaveURL(/\/team$/);
  });

  test("the organization switcher submits with its button", async ({ page }) => {
    const { orgName } = await signInWithOrganization(page, "NoScript Switch");
    await createOrganizationWithRequests(page.request, "Other NoScript");
    await page.goto("/team");
    await page.getByLabel("Active organization").selectOption({ label: orgName });
    await page.getByRole("button", { name: "Switch" }).click();
    await expect(page.getByLabel("Active organization").locator("option:checked")).toHaveText(orgName);
  });
});
