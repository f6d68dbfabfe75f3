/** Remix options, passed to the Vite plugin by vite.config.ts. */
/** @type {import("@remix-run/dev").VitePluginConfig} */
export default {
  ignoredRouteFiles: ["**/*.test.*", "**/.*"],
  serverModuleFormat: "esm",
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    // On: each document names its own routes and the browser asks for others as links appear. With it
    // off, the whole manifest (24.5 KB) joined the first page's JavaScript and took /login past DESIGN
    // §7's 1.1× a bare Remix app's (decision 0119).
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
    v3_routeConfig: true,
  },
};
