import { createRequestHandler } from "@remix-run/node";
import type { EntryContext } from "@remix-run/node";
import { Links, Outlet, RemixServer } from "@remix-run/react";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { remixBuild } from "./testing/remix-build";

// Remix's <Links> is patched (patches/, decision 0087's eleventh and thirteenth passes): on the server a
// build's head links for a set of routes are worked out once, although every request hands the render
// a new object of the same route modules. Each page must still name its own routes' links.
function page(name: string) {
  return { default: () => createElement("p", null, name), links: vi.fn(() => [{ rel: "stylesheet", href: `/${name}.css` }]) };
}
const team = page("team");
const billing = page("billing");

const route = (id: string, path: string, parentId?: string) => ({
  id,
  path,
  parentId,
  module: `/${id}.js`,
  hasLoader: false,
  hasAction: false,
  hasClientLoader: false,
  hasClientAction: false,
  hasErrorBoundary: false,
});

const handedModules: EntryContext["routeModules"][] = [];
const build = remixBuild(
  (request: Request, status: number, headers: Headers, context: EntryContext) => {
    handedModules.push(context.routeModules);
    headers.set("Content-Type", "text/html");
    return new Response(`<!DOCTYPE html>${renderToString(createElement(RemixServer, { context, url: request.url }))}`, { status, headers });
  },
  {
    root: {
      id: "root",
      path: "",
      module: {
        default: () => createElement("html", null, createElement("head", null, createElement(Links)), createElement("body", null, createElement(Outlet))),
        links: () => [{ rel: "icon", href: "/favicon.svg" }],
      },
    },
    team: { id: "team", parentId: "root", path: "team", module: team },
    billing: { id: "billing", parentId: "root", path: "billing", module: billing },
  },
  { root: route("root", ""), team: route("team", "team", "root"), billing: route("billing", "billing", "root") },
);

const handle = createRequestHandler(build, "production");
const headOf = async (path: string) => {
  const html = await (await handle(new Request(`http://console.test${path}`))).text();
  return html.slice(0, html.indexOf("</head>"));
};

describe("a document's head links", () => {
  it("are each page's own, worked out once for each set of routes", async () => {
    for (let i = 0; i < 3; i++) {
      const teamHead = await headOf("/team");
      expect(teamHead).toContain('<link rel="icon" href="/favicon.svg"/>');
      expect(teamHead).toContain('<link rel="stylesheet" href="/team.css"/>');
      expect(teamHead).not.toContain("billing.css");

      const billingHead = await headOf("/billing");
      expect(billingHead).toContain('<link rel="stylesheet" href="/billing.css"/>');
      expect(billingHead).not.toContain("team.css");
    }
    expect(team.links).toHaveBeenCalledTimes(1);
    expect(billing.links).toHaveBeenCalledTimes(1);
  });

  it("come from the one object of the build's route modules that every request is handed", async () => {
    await headOf("/team");
    await headOf("/billing");
    const [first, ...rest] = handedModules.slice(-2);
    expect(rest).toEqual([first]);
    expect(rest[0]).toBe(first);
    expect(first!.team).toBe(team);
  });
});
