import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import type { ComponentProps } from "react";

// Remix's router parts are react-router's; the page's organization comes from the layout's data.
vi.mock("@remix-run/react", async () => ({
  ...(await import("react-router-dom")),
  useRouteLoaderData: () => ({ activeOrganization: { id: 7 } }),
}));

const { createStaticHandler, createStaticRouter, StaticRouterProvider } = await import("react-router-dom/server");
const { LedgerExport } = await import("./LedgerExport");

/** The export as the server renders it on /billing: what a browser without JavaScript gets. */
async function render(refusal: ComponentProps<typeof LedgerExport>["refusal"], search = "") {
  const handler = createStaticHandler([{ path: "/billing", element: <LedgerExport timeZone="UTC" refusal={refusal} /> }]);
  const context = await handler.query(new Request(`http://console.test/billing${search}`));
  if (context instanceof Response) throw new Error("redirected");
  return renderToStaticMarkup(<StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} />);
}

const valueOf = (html: string, name: string) => new RegExp(`<input[^>]* name="${name}"[^>]* value="([^"]*)"`).exec(html)?.[1];

describe("the ledger export without JavaScript", () => {
  it("is a GET form to the CSV with the page's organization, empty dates and no alert", async () => {
    const html = await render(null);
    expect(html).toMatch(/<form method="get" action="\/billing\/ledger\.csv"/);
    expect(html).toMatch(/<input type="hidden" name="[^"]+" value="7"\/>/);
    expect(valueOf(html, "from")).toBe("");
    expect(valueOf(html, "to")).toBe("");
    expect(html).not.toContain('role="alert"');
  });

  it("after a refusal, says why, takes focus, and keeps the dates as typed", async () => {
    const html = await render({ error: "reversed", from: "2026-12-01", to: "2026-11-01" });
    expect(html).toMatch(
      /role="alert" class="alert alert-error export-refusal" tabindex="-1" autofocus="">To is before From: no day is in this range\.<\/div>/,
    );
    expect(html).toMatch(/<section class="ledger-export /);
    expect(valueOf(html, "from")).toBe("2026-12-01");
    expect(valueOf(html, "to")).toBe("2026-11-01");
    expect(await render({ error: "invalid", from: "x", to: "" })).toContain("Choose the days to export with the date pickers, or none.");
  });

  it("takes nothing from the URL: a link can bring back no refusal, nor words of its own", async () => {
    expect(await render(null, "?exportError=reversed&exportFrom=2026-12-01")).not.toContain('role="alert"');
    expect(await render(null, "?exportError=Your+account+is+locked")).not.toContain('role="alert"');
  });
});
