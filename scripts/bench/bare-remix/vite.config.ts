import path from "node:path";
import { fileURLToPath } from "node:url";
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";

const here = path.dirname(fileURLToPath(import.meta.url));

// Built by the bench into .cache/bare-remix/app (git-ignored), beside the registry's packages it runs on (bench/api.ts).
export default defineConfig({
  root: here,
  logLevel: "warn",
  plugins: [remix({ appDirectory: path.join(here, "app"), buildDirectory: process.env.BARE_REMIX_BUILD ?? path.join(here, "../../../.cache/bare-remix/app") })],
});
