import { createServerRoutes } from "@remix-run/react/dist/routes.js";
import { matchPath, matchRoutes, resolvePath } from "@remix-run/router";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server.js";
import { describe, expect, it } from "vitest";

// The server's router packages are patched (patches/, decisions 0093 and 0087's fifth pass): route
// paths compiled once, each path's matches kept, and one route tree per build. One path compiled under
// other flags, matched twice, or rendered for two requests, must still come out as the router makes it.
describe("route matching with compiled paths kept", () => {
  it("keeps case sensitivity apart for the same path", () => {
    expect(matchPath({ path: "/Team", caseSensitive: true }, "/team")).toBeNull();
    expect(matchPath({ path: "/Team" }, "/team")?.pathname).toBe("/team");
    expect(matchPath({ path: "/Team", caseSensitive: true }, "/team")).toBeNull();
    expect(matchPath({ path: "/Team", caseSensitive: true }, "/Team")?.pathname).toBe("/Team");
  });

  it("keeps prefix and whole-path matching apart for the same path", () => {
    expect(matchPath({ path: "/billing", end: false }, "/billing/success")?.pathnameBase).toBe("/billing");
    expect(matchPath({ path: "/billing" }, "/billing/success")).toBeNull();
    expect(matchPath({ path: "/billing", end: false }, "/billing/success")?.pathnameBase).toBe("/billing");
  });

  it("reads each request's own parameters", () => {
    const path = "/playground/:category/:useCase";
    expect(matchPath(path, "/playground/text/summary")?.params).toEqual({ category: "text", useCase: "summary" });
    expect(matchPath(path, "/playground/image/edit")?.params).toEqual({ category: "image", useCase: "edit" });
    expect(matchPath(path, "/playground/image")).toBeNull();
  });

  it("matches nested routes and splats as before, many times over", () => {
    const routes = [
      {
        id: "org",
        path: "/",
        children: [
          { id: "team", path: "team" },
          { id: "models", path: "models/*" },
          { id: "rest", path: "*" },
        ],
      },
    ];
    for (let i = 0; i < 3; i++) {
      expect(matchRoutes(routes, "/team")?.map((m) => m.route.id)).toEqual(["org", "team"]);
      expect(matchRoutes(routes, "/models/fast/one")?.at(-1)?.params["*"]).toBe("fast/one");
      expect(matchRoutes(routes, "/nowhere")?.at(-1)?.route.id).toBe("rest");
    }
  });
});

describe("matches kept per path", () => {
  const routes = [{ id: "org", path: "/", children: [{ id: "use-case", path: "playground/:category/:useCase" }] }];

  it("hands out matches the caller may change without changing the next caller's", () => {
    matchRoutes(routes, "/playground/text/summary");
    const first = matchRoutes(routes, "/playground/text/summary")!;
    (first[1].params as Record<string, string>).category = "changed";
    first.pop();
    const again = matchRoutes(routes, "/playground/text/summary")!;
    expect(again.map((m) => m.route.id)).toEqual(["org", "use-case"]);
    expect(again[1].params).toEqual({ category: "text", useCase: "summary" });
  });

  it("keeps each path's own parameters", () => {
    expect(matchRoutes(routes, "/playground/text/summary")?.at(-1)?.params).toEqual({ category: "text", useCase: "summary" });
    expect(matchRoutes(routes, "/playground/image/edit")?.at(-1)?.params).toEqual({ category: "image", useCase: "edit" });
    expect(matchRoutes(routes, "/playground/image")).toBeNull();
  });
});

describe("one route tree per build", () => {
  const Page = ({ name }: { name: string }) => createElement("p", null, name);

  const tree = (pages: string[]) => [
    {
      id: "root",
      path: "/",
      children: pages.map((page) => ({ id: page, path: page, loader: () => page, Component: () => createElement(Page, { name: page }) })),
    },
  ];
  const renderer = (routes: ReturnType<typeof tree>) => {
    const handler = createStaticHandler(routes);
    return async (path: string) => {
      const context = await handler.query(new Request(`http://console.test${path}`));
      if (context instanceof Response) throw new Error("unexpected response");
      return renderToStaticMarkup(createElement(StaticRouterProvider, { router: createStaticRouter(routes, context), context }));
    };
  };

  it("renders each request's own page from the same routes, and each tree's own routes", async () => {
    const organization = renderer(tree(["team", "tokens"]));
    const other = renderer(tree(["billing"]));
    for (let i = 0; i < 2; i++) {
      expect(await organization("/team")).toContain("<p>team</p>");
      expect(await other("/billing")).toContain("<p>billing</p>");
      expect(await organization("/tokens")).toContain("<p>tokens</p>");
    }
  });

  it("builds the server's routes again when a route module changes", () => {
    const manifest = { root: { id: "root", path: "", hasLoader: false, hasAction: false, module: "" } };
    const before = { root: { default: () => null } };
    const after = { root: { default: () => null } };
    const component = (modules: Record<string, { default: () => null }>) =>
      (createServerRoutes(manifest as never, modules as never, {} as never, false)[0] as { Component?: unknown }).Component;
    expect(component(before)).toBe(before.root.default);
    expect(component({ ...before })).toBe(before.root.default);
    expect(component(after)).toBe(after.root.default);
    // Remix's server hands every request the same object of a build's modules (patches/): handed again,
    // it gets the routes built for it, and an earlier object its own again.
    expect(component(after)).toBe(after.root.default);
    expect(component(before)).toBe(before.root.default);
  });
});

describe("route matching after routes are added in place", () => {
  it("matches a route discovered after the tree was first matched", () => {
    const children: { id: string; path: string }[] = [{ id: "team", path: "team" }];
    const routes = [{ id: "org", path: "/", children }];
    expect(matchRoutes(routes, "/tokens")).toBeNull();
    // What the client router's route discovery does: children pushed into the same array.
    children.push({ id: "tokens", path: "tokens" });
    expect(matchRoutes(routes, "/tokens")?.map((m) => m.route.id)).toEqual(["org", "tokens"]);
    expect(matchRoutes(routes, "/team")?.map((m) => m.route.id)).toEqual(["org", "team"]);
  });
});

describe("link paths kept per location", () => {
  it("resolves each link from its own location, however often and however many", () => {
    for (let round = 0; round < 2; round++) {
      expect(resolvePath("settings", "/team").pathname).toBe("/team/settings");
      expect(resolvePath("settings", "/tokens/").pathname).toBe("/tokens/settings");
      expect(resolvePath("../billing?tab=ledger#top", "/org/team")).toEqual({ pathname: "/org/billing", search: "?tab=ledger", hash: "#top" });
      expect(resolvePath("./a/../b", "/x").pathname).toBe("/x/b");
      expect(resolvePath("/usage", "/anywhere").pathname).toBe("/usage");
    }
    // Past the bound the kept paths are dropped, not mixed up.
    for (let i = 0; i < 1500; i++) expect(resolvePath(`p${i}`, `/from${i}`).pathname).toBe(`/from${i}/p${i}`);
    expect(resolvePath("settings", "/team").pathname).toBe("/team/settings");
  });
});
