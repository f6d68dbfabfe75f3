import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";
import remixConfig from "./remix.config.js";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  plugins: [
    tailwindcss(),
    // The Remix plugin breaks Vitest ("can't detect preamble"); tests need only path aliases.
    !process.env.VITEST && remix(remixConfig),
    tsconfigPaths(),
  ],
  server: { hmr: { port: 24679 } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "platform/**/*.test.ts", "server/**/*.test.ts", "tests/platform/**/*.test.ts", "contract/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    testTimeout: 20_000,
  },
});
