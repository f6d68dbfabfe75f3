import { expect, test } from "./support/test";
import { newPerson, OPERATOR, signInWithRequests } from "./support/auth";
import { startServer } from "./support/server";

// One second server for the file, on one port: its tests must share a worker (with fullyParallel, two
// workers would each start one on that port, and one's afterAll would stop the other's).
test.describe.configure({ mode: "serial" });

let server: Awaited<ReturnType<typeof startServer>>;
test.beforeAll(async () => {
  test.setTimeout(120_000); // a second server starts here; a busy machine can take a while
  server = await startServer({ ORG_SIGNUP_ENABLED: "false" }, 60);
});
test.afterAll(() => server?.stop());

test("with organization signup disabled, onboarding offers only the invite code", async ({ page }) => {
  await page.context().addCookies([{ name: "CH-time-zone", value: "UTC", url: server.baseURL }]);
  // The first sign-in on a fresh server is the operator's (it joins the system organization).
  await signInWithRequests(page.request, OPERATOR, "google", server.baseURL);
  await page.context().clearCookies();
  await page.context().addCookies([{ name: "CH-time-zone", value: "UTC", url: server.baseURL }]);
  await signInWithRequests(page.request, newPerson("Invitee"), "google", server.baseURL);
  await page.goto(`${server.baseURL}/welcome`);
  await expect(page.getByText("Get started by entering your invite code.")).toBeVisible();
  await expect(page.getByPlaceholder("Enter invite code")).toBeVisible();
  await expect(page.getByPlaceholder("My Organization")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Sign Out" })).toBeVisible();
});

test("with organization signup disabled, the Organizations page offers only the invite code too", async ({ page }) => {
  await page.context().addCookies([{ name: "CH-time-zone", value: "UTC", url: server.baseURL }]);
  // The operator has an organization (the system one) on this server, so the console's page is theirs to see.
  await signInWithRequests(page.request, OPERATOR, "google", server.baseURL);
  await page.goto(`${server.baseURL}/organizations`);
  await expect(page.getByText("Get started by entering your invite code.")).toBeVisible();
  await expect(page.getByPlaceholder("Enter invite code")).toBeVisible();
  await expect(page.getByPlaceholder("My Organization")).toHaveCount(0);
  // The platform refuses a creation all the same.
  const refused = await page.request.post(`${server.baseURL}/api/v1/organizations`, { data: { name: "Nope" } });
  expect(refused.status()).toBe(403);
});

test("Sign Out on onboarding goes to /login and ends the session on the platform, not only in this browser", async ({ page, playwright }) => {
  await page.context().addCookies([{ name: "CH-time-zone", value: "UTC", url: server.baseURL }]);
  // The first sign-in on a fresh server is the operator's (it joins the system organization).
  await signInWithRequests(page.request, OPERATOR, "google", server.baseURL);
  await page.context().clearCookies();
  await page.context().addCookies([{ name: "CH-time-zone", value: "UTC", url: server.baseURL }]);
  await signInWithRequests(page.request, newPerson("Leaver"), "google", server.baseURL);
  const session = (await page.context().cookies(server.baseURL)).find((cookie) => cookie.name === "sid");
  expect(session).toBeDefined();
  await page.goto(`${server.baseURL}/welcome`);
  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect((await (await page.request.get(`${server.baseURL}/api/v1/auth/session`)).json()).valid).toBe(false);
  // The cookie the browser had, sent again (as a copy taken before Sign Out would be): the platform ended it.
  const copy = await playwright.request.newContext({ extraHTTPHeaders: { cookie: `sid=${session!.value}` } });
  try {
    expect((await (await copy.get(`${server.baseURL}/api/v1/auth/session`)).json()).valid).toBe(false);
  } finally {
    await copy.dispose();
  }
});
