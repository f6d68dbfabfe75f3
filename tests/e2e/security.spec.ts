import http from "node:http";
import { expect, test } from "./support/test";
import { createOrganizationWithRequests, newPerson, signInWithOrganization, signInWithRequests } from "./support/auth";

/** A raw request to the e2e server with a Host header of our choosing (browsers won't forge one). */
function getWithHost(baseURL: string, path: string, host: string): Promise<number> {
  const url = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: url.port, path, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

test("a page whose name resolves to this server (DNS rebinding) is refused: 421 for its Host, the sign-in page included", async ({ baseURL }) => {
  const port = new URL(baseURL!).port;
  expect(await getWithHost(baseURL!, "/login", `evil.example:${port}`)).toBe(421);
  expect(await getWithHost(baseURL!, "/api/v1/auth/google", `evil.example:${port}`)).toBe(421);
  expect(await getWithHost(baseURL!, "/login", `localhost:${port}`)).toBe(200);
  expect(await getWithHost(baseURL!, "/healthz", "anything.example")).toBe(200);
});

test("a remembered page with non-Latin-1 characters is where sign-in lands, not a 500", async ({ page }) => {
  const person = newPerson("Unicode");
  await signInWithRequests(page.request, person);
  await createOrganizationWithRequests(page.request, "Unicode Co");
  await page.request.post("/api/v1/auth/logout");
  const login = await page.request.get(`/login?redirectTo=${encodeURIComponent("/chat?q=tëam €")}`);
  expect(login.status()).toBe(200);
  const returnTo = login.headers()["set-cookie"] ?? "";
  // The console's own cookie: httpOnly, SameSite=Lax, signed (value.signature), not Secure over http.
  expect(returnTo).toMatch(/return_to=[^;]+/);
  expect(returnTo).toMatch(/HttpOnly/i);
  expect(returnTo).toMatch(/SameSite=Lax/i);
  expect(returnTo).not.toMatch(/Secure/i);
  expect(decodeURIComponent(/return_to=([^;]+)/.exec(returnTo)![1])).toMatch(/\.[A-Za-z0-9+/]+$/);
  // Sign in again, stopping at the callback's redirect to /login?login_success=1.
  const page1 = await (await page.request.get("/api/v1/auth/google")).text();
  const hidden = Object.fromEntries(
    [...page1.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\s*\/?>/g)].map((m) => [m[1], m[2].replace(/&amp;/g, "&")]),
  );
  const issued = await page.request.post("/api/v1/auth/dev/authorize", { form: { ...hidden, ...person }, maxRedirects: 0 });
  const callback = await page.request.get(issued.headers()["location"], { maxRedirects: 0 });
  expect(callback.headers()["location"]).toBe("/login?login_success=1");
  const landed = await page.request.get("/login?login_success=1", { maxRedirects: 0 });
  expect(landed.status()).toBe(302);
  expect(landed.headers()["location"]).toBe("/chat?q=t%C3%ABam%20%E2%82%AC");
});

test("a forged return_to cookie is ignored: sign-in goes home", async ({ page, context, baseURL }) => {
  const person = newPerson("Forger");
  await signInWithRequests(page.request, person);
  await createOrganizationWithRequests(page.request, "Forger Co");
  await page.request.post("/api/v1/auth/logout");
  // What the console wrote before it signed its cookies: base64 JSON, no signature.
  await context.addCookies([{ name: "return_to", value: encodeURIComponent(Buffer.from(JSON.stringify("/billing")).toString("base64")), url: baseURL! }]);
  await signInWithRequests(page.request, person);
  const landed = await page.request.get("/login?login_success=1", { maxRedirects: 0 });
  expect(landed.headers()["location"]).toBe("/team");
});

test("each page has its own script nonce: the policy allows only the document's own inline scripts, and they run", async ({ page }) => {
  await signInWithRequests(page.request, newPerson("Nonce"));
  await createOrganizationWithRequests(page.request, "Nonce Co");
  const nonces: string[] = [];
  for (let i = 0; i < 2; i++) {
    const response = await page.request.get("/team");
    const policy = response.headers()["content-security-policy"];
    const nonce = /script-src [^;]*'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/_-]{22,}={0,2}$/);
    const html = await response.text();
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)].map((m) => m[1]);
    expect(inline.length).toBeGreaterThan(1);
    for (const attributes of inline) expect(attributes).toContain(`nonce="${nonce}"`);
    nonces.push(nonce!);
  }
  expect(nonces[0]).not.toBe(nonces[1]);
  // Under the policy the document's scripts run: the page hydrates and its router takes the next click.
  await page.goto("/team");
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  await page.getByRole("link", { name: "API Tokens", exact: true }).click();
  await expect(page).toHaveURL(/\/tokens$/);
  expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
});

test.describe("after signing out, Back does not show the organization's pages from the browser's cache", () => {
  test.use({ javaScriptEnabled: false });

  test("every page of the organization, and its data requests, are kept by no cache; Back asks again and lands on sign in", async ({ page }) => {
    const { orgName } = await signInWithOrganization(page, "Leaver");
    const pages = ["/", "/billing", "/tokens", "/usage", "/audit", "/team", "/models", "/chat", "/organizations"];
    for (const path of pages) {
      const document = await page.goto(path);
      expect(document!.status(), path).toBe(200);
      expect(document!.headers()["cache-control"], path).toBe("no-store");
      const data = await page.request.get(`${path === "/" ? "/_root" : path}.data`);
      expect(data.headers()["cache-control"], `${path}.data`).toBe("no-store");
    }
    await page.goto("/billing");
    await expect(page.getByText(orgName).first()).toBeVisible();
    await page.goto("/terms");
    // The session ends (signed out in another tab, or expired): the cookie is gone.
    await page.context().clearCookies();
    await page.goBack();
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByText(orgName)).toHaveCount(0);
  });
});
