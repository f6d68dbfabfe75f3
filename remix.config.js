/** Remix options, passed to the Vite plugin by vite.config.ts. */
/** @type {import("@remix-run/dev").VitePluginConfig} */
export default {
  ignoredRouteFiles: ["**/*.test.*", "**/.*"],
  serverModuleFormat: "esm",
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    // Off: the app's routes fit in one cached manifest file (about 3 KB compressed) that the first page
    // loads. Lazy discovery wrote a partial manifest into every document (3.5 KB) and asked the server
    // for routes as pages rendered links (decision 0087, thirteenth pass).
    v3_lazyRouteDiscovery: false,
    v3_singleFetch: true,
    v3_routeConfig: true,
  },
};
