import type { ServerBuild } from "@remix-run/node";

type Render = ServerBuild["entry"]["module"]["default"];

/**
 * A production Remix build for tests that go through Remix's request handler: the entry's render, the
 * route modules and their manifest entries; the rest is what a Vite build of this app has.
 */
export function remixBuild(render: Render, routes: Record<string, object>, manifestRoutes: Record<string, object>): ServerBuild {
  return {
    mode: "production",
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    isSpaMode: false,
    future: { v3_singleFetch: true },
    entry: { module: { default: render } },
    routes,
    assets: { entry: { module: "/entry.js", imports: [] }, routes: manifestRoutes, url: "/manifest.js", version: "1" },
  } as unknown as ServerBuild;
}
