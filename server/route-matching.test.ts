import { matchPath, matchRoutes } from "@remix-run/router";
import { describe, expect, it } from "vitest";

// The server's @remix-run/router is patched to compile each route path once (patches/, decision
// 0093). One path compiled under other flags, or matched twice, must still match as the router does.
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
