import { signInWithOrganization } from "./support/auth";
import { operatorPage, uniqueModelName } from "./support/system";
import { expect, test } from "./support/test";

/** Issue 14.5: a model under maintenance is not "warming up": the chat says so once and stops. */
test("the maintenance notice replaces the warm-up retry", async ({ page, browser, baseURL }) => {
  const name = uniqueModelName("e2e-maintenance");
  const operator = await operatorPage(browser, baseURL!);
  const saved = await operator.request.put(`/api/v1/models/${name}`, {
    data: { displayName: `Maintenance ${name}`, provider: "builtin", contextSize: 8192, status: "maintenance" },
  });
  expect(saved.ok()).toBe(true);
  try {
    await signInWithOrganization(page);
    await page.clock.install();
    const sends: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && new URL(r.url()).pathname === "/resources/chat") sends.push(r.url());
    });
    await page.goto(`/chat?model=${encodeURIComponent(name)}`);
    const input = page.getByRole("textbox", { name: "Message" });
    await expect(input).toBeEnabled();
    await expect(async () => {
      await input.fill("Hello");
      await expect(page.getByRole("button", { name: "Send" })).toBeEnabled({ timeout: 500 });
    }).toPass();
    await page.getByRole("button", { name: "Send" }).click();

    const notice = page.getByRole("status").filter({ hasText: "This model is under maintenance." });
    await expect(notice).toBeVisible();
    await expect(page.getByText(/Retrying in \d+s/)).toHaveCount(0);
    await expect(page.getByText("Model is warming up. This usually takes a few minutes for the first request.")).toHaveCount(0);

    // Past the 30 s a warm-up would wait, nothing was sent again and the notice stays.
    await page.clock.runFor(35_000);
    await expect(notice).toBeVisible();
    expect(sends).toHaveLength(1);
  } finally {
    await operator.request.delete(`/api/v1/models/${name}`);
    await operator.context().close();
  }
});
