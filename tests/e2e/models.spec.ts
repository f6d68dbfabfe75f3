import { signInWithOrganization } from "./support/auth";
import { fakeModels } from "./support/chat";
import { expect, test } from "./support/test";

test("the models table shows each model with its status, and opens the chat with it", async ({ page }) => {
  const { names, dispose } = await fakeModels(["echo"]);
  try {
    await signInWithOrganization(page);
    await page.goto("/models");
    const builtin = page.getByRole("row", { name: /builtin/ });
    await expect(builtin).toContainText("Built-in development model");
    await expect(builtin).toContainText("8,192");
    await expect(builtin.getByText("Model is online and accepting requests")).toBeAttached();
    const fake = page.getByRole("row", { name: new RegExp(names.echo) });
    await expect(fake).toContainText("32,768");
    await expect(fake.getByText("Model is online and accepting requests")).toBeAttached();
    await fake.getByRole("link", { name: /Chat with this model/ }).click();
    await expect(page).toHaveURL(new RegExp(`/chat\\?model=${names.echo}`));
    await expect(page.getByRole("button", { name: new RegExp(`Model: Fake echo`) })).toBeVisible();
  } finally {
    await dispose();
  }
});
