import { describe, expect, it, vi } from "vitest";
import { staticPage } from "~/lib/static-page.testing";

const loaderData = vi.hoisted(() => ({ current: undefined as unknown }));
vi.mock("@remix-run/react", async () => ({
  ...(await import("react-router-dom")),
  useLoaderData: () => loaderData.current,
  useActionData: () => undefined,
}));

const { default: OrganizationsPage } = await import("~/routes/_org.organizations");

describe("/organizations", () => {
  it("can show a long organization name in full, and cuts a right-to-left one at its end", async () => {
    const hebrew = "שירותי ענן ".repeat(8).trim();
    const latin = `Acme ${"Holdings ".repeat(12).trim()}`;
    loaderData.current = {
      organizations: [
        { id: 7, name: hebrew },
        { id: 8, name: latin },
      ],
      activeId: 7,
      orgSignupEnabled: true,
    };
    const html = (await staticPage("/organizations", <OrganizationsPage />))();
    for (const name of [hebrew, latin]) expect(html).toContain(`<span class="truncate font-medium" title="${name}" dir="auto">${name}</span>`);
  });
});
