import { signInWithOrganization } from "./support/auth";
import { grantCreditWithCli } from "./support/billing";
import { expect, test } from "./support/test";

const LEDGER_TIME = /<td[^>]*>(\d{2} \w{3} \d{4}, \d{2}:\d{2})<\/td>/;

/**
 * Chrome reports `Etc/Unknown` when it can't detect the zone, and its hint script then keeps that
 * cookie (it matches what the browser reports), so the requests here send it as such a browser does.
 */
test("a time zone the server doesn't know shows UTC times, and the pages still open", async ({ page, context, baseURL }) => {
  const { orgId } = await signInWithOrganization(page);
  grantCreditWithCli(orgId, "5", "Zone check");
  const inUtc = await page.request.get("/billing");
  expect(inUtc.status()).toBe(200);
  const utcTime = LEDGER_TIME.exec(await inUtc.text())?.[1];
  expect(utcTime).toBeTruthy();

  for (const zone of ["Etc/Unknown", "Mars/Olympus"]) {
    await context.addCookies([{ name: "CH-time-zone", value: zone, url: baseURL! }]);
    const billing = await page.request.get("/billing");
    expect(billing.status(), `/billing with ${zone}`).toBe(200);
    expect(LEDGER_TIME.exec(await billing.text())?.[1]).toBe(utcTime);
    for (const path of ["/tokens", "/audit", "/billing/ledger.csv"]) {
      expect((await page.request.get(path)).status(), `${path} with ${zone}`).toBe(200);
    }
  }
});
