import { describe, expect, it } from "vitest";
import { AddFundsForm } from "~/features/billing/AddFundsForm";
import { OrganizationForms } from "~/features/onboarding/OrganizationForms";
import { staticPage } from "./static-page.testing";

const formTags = (html: string) => [...html.matchAll(/<form[^>]*>/g)].map((match) => match[0]);

// Before JavaScript loads (or without it) the browser's own checks stop a blank or out-of-range value in
// place; once hydrated, conform's validation takes over (decision 0081).
describe("the console's forms as the server writes them", () => {
  it("leave the browser's own checks on: a blank organization name or invite code is stopped in place", async () => {
    const html = (await staticPage("/welcome", <OrganizationForms orgSignupEnabled resultFor={() => undefined} />))();
    const forms = formTags(html);
    expect(forms).toHaveLength(2);
    for (const form of forms) expect(form).not.toMatch(/novalidate/i);
    expect(html.match(/required=""/g)?.length).toBe(2);
  });

  it("leave the browser's own checks on: an amount under the minimum is stopped in place", async () => {
    const html = (await staticPage("/billing?dialog=add-funds", <AddFundsForm nonce="n" hasPaymentMethod lastResult={undefined} />))();
    const [form] = formTags(html).filter((tag) => tag.includes('id="add-funds"'));
    expect(form).toBeDefined();
    expect(form).not.toMatch(/novalidate/i);
    expect(html).toMatch(/<input[^>]*min="10"/);
  });
});
