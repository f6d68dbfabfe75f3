import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { filtersFrom } from "./audit-filters";
import { AuditFilterForm } from "./AuditFilterForm";

/** The form as the server renders it for a URL: what a browser without JavaScript gets. */
async function render(search: string, system = false) {
  const filters = filtersFrom(new URLSearchParams(search));
  const handler = createStaticHandler([{ path: "/audit", element: <AuditFilterForm filters={filters} system={system} /> }]);
  const context = await handler.query(new Request(`http://console.test/audit${search}`));
  if (context instanceof Response) throw new Error("redirected");
  return renderToStaticMarkup(<StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} />);
}

const valueOf = (html: string, name: string) => new RegExp(`<input[^>]* name="${name}"[^>]* value="([^"]*)"`).exec(html)?.[1];

describe("the audit filters without JavaScript", () => {
  it("are a GET form with Apply, each control showing the filter of the URL", async () => {
    const html = await render("?organization=12&action=token.created&actor=ada%40example.test&from=2026-11-01&to=2026-11-30", true);
    expect(html).toMatch(/<form method="get" action="\/audit\?[^"]*"[^>]*role="search"/);
    expect(html).toMatch(/<button type="submit"[^>]*>Apply filters<\/button>/);
    expect(valueOf(html, "organization")).toBe("12");
    expect(html).toMatch(/<option value="token\.created" selected="">/);
    expect(valueOf(html, "actor")).toBe("ada@example.test");
    expect(valueOf(html, "from")).toBe("2026-11-01");
    expect(valueOf(html, "to")).toBe("2026-11-30");
    expect(html).toMatch(/<a[^>]* href="\/audit"[^>]*>Clear<\/a>/);
  });

  it("show no filter for a URL without any, and no organization outside the system organization", async () => {
    const html = await render("");
    expect(html).not.toContain('name="organization"');
    expect(html).toMatch(/<option value="" selected="">All actions<\/option>/);
    for (const name of ["actor", "from", "to"]) expect(valueOf(html, name), name).toBe("");
  });
});
