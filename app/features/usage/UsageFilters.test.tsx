import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";

// Remix's router parts are react-router's; the page's organization comes from the layout's data.
vi.mock("@remix-run/react", async () => ({
  ...(await import("react-router-dom")),
  useRouteLoaderData: () => ({ activeOrganization: { id: 7 } }),
}));

const { createStaticHandler, createStaticRouter, StaticRouterProvider } = await import("react-router-dom/server");
const { UsageFilters } = await import("./UsageFilters");

const OPTIONS = { models: ["builtin", "llama"], tokens: [{ publicId: "tok_a", revoked: false }], members: [{ id: 3, name: "Mia" }] };

/** The filters as the server renders them: what a browser without JavaScript gets. */
async function render(search: string, filters: Parameters<typeof UsageFilters>[0]["filters"]) {
  const handler = createStaticHandler([
    { path: "/usage", element: <UsageFilters days={30} metric="tokens" filters={filters} options={OPTIONS} lastDay="2025-01-15" /> },
  ]);
  const context = await handler.query(new Request(`http://console.test/usage${search}`));
  if (context instanceof Response) throw new Error("redirected");
  return renderToStaticMarkup(<StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} />);
}

/** The value of the option a select renders selected ("" is its All option). */
const selected = (html: string, name: string) =>
  /<option value="([^"]*)" selected=""/.exec(new RegExp(`<select name="${name}"[^>]*>(.*?)</select>`).exec(html)![1])?.[1];

describe("the usage filters without JavaScript", () => {
  it("are a GET form to /usage with an Apply button, each select showing the filter of the URL", async () => {
    const html = await render("?days=30&model=llama&member=3", { model: "llama", member: 3 });
    expect(html).toMatch(/<form method="get" action="\/usage" role="search" aria-label="Usage filters"/);
    expect(html).toMatch(/<button type="submit"[^>]*>Apply<\/button>/);
    expect(selected(html, "model")).toBe("llama");
    expect(selected(html, "token")).toBe("");
    expect(selected(html, "member")).toBe("3");
    expect(html).toContain('<input type="hidden" name="days" value="30"/>');
    expect(html).toMatch(/<a[^>]* href="\/usage\?days=30"[^>]*>.*Clear filters<\/a>/);
  });

  it("show every select on its All option when the URL has no filter, and no Clear filters", async () => {
    const html = await render("?days=30", {});
    for (const name of ["model", "token", "member"]) expect(selected(html, name), name).toBe("");
    expect(html).not.toContain("Clear filters");
  });
});
