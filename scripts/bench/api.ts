/**
 * The API data plane against a peer (DESIGN §7): the same fast upstream called directly, through
 * Portkey's open-source gateway (unmetered), and through the console's `/openai/v1/chat/completions`
 * (token auth, reservation, metering, receipt), non-streamed and streamed. Rounds are interleaved so
 * the noise of two shared cores falls on every target alike; each figure is the median over rounds.
 */
import { execFileSync, spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
  /** POSTed when given; a GET otherwise. */
  body?: string;
}

export interface Figure {
  reqPerSec: number;
  p50Ms: number;
}

/** A target's medians, and its figure in each round (in the order the rounds ran). */
export interface Figures extends Figure {
  rounds: Figure[];
}

/**
 * The median over rounds of `a`'s requests a second over `b`'s in the same round: the host's speed,
 * which moves by a fifth or more within a minute on two shared cores, cancels out of each round's ratio.
 */
export function roundRatio(a: Figures, b: Figures): number {
  return median(a.rounds.map((round, i) => round.reqPerSec / b.rounds[i].reqPerSec));
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function load(target: Target, duration: number): Promise<Figure> {
  const result = await autocannon({
    url: target.url,
    method: target.body ? "POST" : "GET",
    headers: target.headers,
    body: target.body,
    connections: 10,
    duration,
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.name}: ${result.non2xx} answers were not 2xx, ${result.errors} errors`);
  return { reqPerSec: result.requests.average, p50Ms: result.latency.p50 };
}

/** Runs every target for `seconds`, `rounds` times over, in turn; a short warm-up first. */
export async function interleaved(targets: Target[], rounds = Number(process.env.BENCH_ROUNDS ?? 3), seconds = 5): Promise<Map<string, Figures>> {
  for (const target of targets) await load(target, 1);
  const runs = new Map<string, Figure[]>(targets.map((t) => [t.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const target of targets) runs.get(target.name)!.push(await load(target, seconds));
  }
  return new Map(
    [...runs].map(([name, figures]) => [
      name,
      { reqPerSec: median(figures.map((f) => f.reqPerSec)), p50Ms: median(figures.map((f) => f.p50Ms)), rounds: figures },
    ]),
  );
}

export interface BareRemix {
  url: string;
  pid: number;
  stop: () => void;
}

const bareRemixDir = path.join(root, ".cache/bare-remix");
const bareRemixSources = path.join(root, "scripts/bench/bare-remix");

/**
 * Builds a new Remix app's one route (scripts/bench/bare-remix) into .cache/bare-remix/app, and installs
 * beside it what a new app gets from the registry: Remix 2.17, React and Express as published
 * (scripts/bench/bare-remix/package-lock.json; kept in .cache between runs, as `npm run build` empties
 * build/). The console's own node_modules carry its performance patches (patches/), which a new app
 * does not have (decision 0119).
 */
export function buildBareRemix(): void {
  execFileSync(
    process.execPath,
    [path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "vite:build", "--config", path.join(bareRemixSources, "vite.config.ts")],
    { cwd: root, env: { ...process.env, BARE_REMIX_BUILD: path.join(bareRemixDir, "app") }, stdio: "ignore" },
  );
  const lock = fs.readFileSync(path.join(bareRemixSources, "package-lock.json"), "utf8");
  const installed = path.join(bareRemixDir, "installed-lock.json");
  if (!fs.existsSync(installed) || fs.readFileSync(installed, "utf8") !== lock) {
    for (const file of ["package.json", "package-lock.json"]) fs.copyFileSync(path.join(bareRemixSources, file), path.join(bareRemixDir, file));
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: bareRemixDir, stdio: "inherit" });
    fs.writeFileSync(installed, lock);
  }
  fs.copyFileSync(path.join(bareRemixSources, "server.mjs"), path.join(bareRemixDir, "server.mjs"));
  // The same build run against the console's node_modules, patches and all: the yardstick of the
  // figures measured before decision 0119, reported beside the budget's.
  const patched = path.join(root, ".cache/bare-remix-patched");
  fs.rmSync(patched, { recursive: true, force: true });
  fs.cpSync(path.join(bareRemixDir, "app"), path.join(patched, "app"), { recursive: true });
  fs.copyFileSync(path.join(bareRemixSources, "server.mjs"), path.join(patched, "server.mjs"));
}

/**
 * Starts the bare app built by `buildBareRemix` on plain Express: DESIGN §7's yardstick for pages.
 * `withConsolePatches` runs it on the console's patched packages instead of the registry's.
 */
export async function startBareRemix(port: number, { withConsolePatches = false } = {}): Promise<BareRemix> {
  const dir = withConsolePatches ? path.join(root, ".cache/bare-remix-patched") : bareRemixDir;
  // Run from its folder, so that Express and Remix resolve to the packages beside it.
  const child = spawn(process.execPath, [path.join(dir, "server.mjs")], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), BARE_REMIX_BUILD: path.join(dir, "app") },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilUp(url, "the bare Remix app");
  return { url, pid: child.pid!, stop: () => void child.kill() };
}

async function waitUntilUp(url: string, what: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const up = await fetch(`${url}/`)
      .then(() => true)
      .catch(() => false);
    if (up) return;
    if (Date.now() > deadline) throw new Error(`${what} did not start`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export interface Portkey {
  url: string;
  stop: () => void;
}

/**
 * Starts Portkey's gateway (a dev dependency) on a loopback port. `node20Shim` loads the fetch shim its
 * streamed replies need on Node 20 (scripts/bench/portkey-node20.mjs); its JSON replies work without.
 */
export async function startPortkey(port: number, node20Shim: boolean): Promise<Portkey> {
  const args = [...(node20Shim ? ["--import", path.join(root, "scripts/bench/portkey-node20.mjs")] : [])];
  const child: ChildProcess = spawn(
    process.execPath,
    [...args, path.join(root, "node_modules/@portkey-ai/gateway/build/start-server.js"), `--port=${port}`, "--headless"],
    {
      cwd: root,
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitUntilUp(url, "Portkey");
  return { url, stop: () => void child.kill() };
}

/** The targets of one comparison: upstream direct, Portkey, and the console, each non-streamed and streamed. */
export function apiTargets(options: { upstreamUrl: string; portkeyUrl: string; portkeyStreamUrl: string; consoleUrl: string; token: string; model: string }) {
  const messages = [{ role: "user", content: "Hello, bench." }];
  const body = (model: string, stream: boolean) => JSON.stringify({ model, messages, ...(stream ? { stream: true } : {}) });
  const json = { "content-type": "application/json" };
  const portkey = { ...json, "x-portkey-provider": "openai", "x-portkey-custom-host": options.upstreamUrl, authorization: "Bearer bench-upstream-key" };
  const console = { ...json, authorization: `Bearer ${options.token}` };
  return {
    json: [
      { name: "upstream direct", url: `${options.upstreamUrl}/chat/completions`, headers: json, body: body("echo", false) },
      { name: "through Portkey", url: `${options.portkeyUrl}/v1/chat/completions`, headers: portkey, body: body("echo", false) },
      { name: "through /openai/v1", url: `${options.consoleUrl}/openai/v1/chat/completions`, headers: console, body: body(options.model, false) },
    ],
    stream: [
      { name: "upstream direct, streamed", url: `${options.upstreamUrl}/chat/completions`, headers: json, body: body("echo", true) },
      { name: "through Portkey, streamed", url: `${options.portkeyStreamUrl}/v1/chat/completions`, headers: portkey, body: body("echo", true) },
      { name: "through /openai/v1, streamed", url: `${options.consoleUrl}/openai/v1/chat/completions`, headers: console, body: body(options.model, true) },
    ],
  } satisfies Record<string, Target[]>;
}
