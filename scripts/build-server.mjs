/**
 * Compiles the server (server/index.ts and the platform it imports) and the operator CLI with esbuild,
 * beside the Remix build (which owns build/server/ and build/client/):
 *   build/app/server.js   `npm run serve`, the container's command
 *   build/cli.js          `node build/cli.js COMMAND ARGS…`
 * Packages stay in node_modules (production dependencies only), so the output is small and native
 * modules (better-sqlite3) load as installed. Path aliases come from tsconfig.json.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const commands = fs
  .readdirSync(path.join(root, "scripts/cli/commands"))
  .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
  .map((f) => f.slice(0, -3))
  .sort();

const started = Date.now();
const result = await build({
  absWorkingDir: root,
  entryPoints: { "app/server": "server/index.ts", cli: "scripts/cli/index.ts" },
  outdir: "build",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  tsconfig: "tsconfig.json",
  sourcemap: "linked",
  define: { __CLI_COMMANDS__: JSON.stringify(commands), __COMPILED_SERVER__: "true" },
  logLevel: "warning",
  metafile: true,
});
const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith(".js"));
console.log(`esbuild: ${outputs.map(([file, o]) => `${file} ${(o.bytes / 1024).toFixed(0)} kB`).join(", ")} in ${Date.now() - started} ms`);
