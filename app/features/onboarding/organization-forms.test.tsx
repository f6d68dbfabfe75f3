import { describe, expect, it } from "vitest";
import { staticPage } from "~/lib/static-page.testing";
import { OrganizationForms } from "./OrganizationForms";

describe("the onboarding forms with organization sign-up turned off", () => {
  it("still show why a create sent from a page made before was refused, beside the invite-code form", async () => {
    const refused = { status: "error" as const, error: { "": ["Organization signup is disabled"] } };
    const html = (
      await staticPage("/welcome", <OrganizationForms orgSignupEnabled={false} resultFor={(intent) => (intent === "create" ? refused : undefined)} />)
    )();
    expect(html).toMatch(/role="alert"[^>]*>Organization signup is disabled</);
    expect(html).toContain("Get started by entering your invite code.");
    expect(html).not.toContain("Create Organization");
  });

  it("show no alert when nothing was refused", async () => {
    const html = (await staticPage("/welcome", <OrganizationForms orgSignupEnabled={false} resultFor={() => undefined} />))();
    expect(html).not.toContain('role="alert"');
  });
});
