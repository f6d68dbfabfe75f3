/**
 * The organization pages of two builds against the bare Remix app, in one interleaved run: before and
 * after a change, under the same load (decision 0087, third pass). Build both first (`npm run build`
 * here, and in a copy of the older commit, e.g. `git archive <commit> | tar -x -C /tmp/base`, with a
 * node_modules link, then `npm run build` there); the bare app is built here as `npm run bench` does:
 *   BENCH_BASE=/tmp/base BENCH_PORT=4100 tsx scripts/bench/pages-ab.ts
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { interleaved, startBareRemix } from "./api";
import { devSignIn } from "./server";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const base = process.env.BENCH_BASE;
if (!base) throw new Error("BENCH_BASE: the folder of the build to compare with");
const port = Number(process.env.BENCH_PORT ?? 3900);

const children: ReturnType<typeof spawn>[] = [];
const stops: (() => void)[] = [];
async function up(url: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (
      await fetch(url).then(
        () => true,
        () => false,
      )
    )
      return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A built console (`build/app/server.js` of `dir`) signed in, with an organization. */
async function startConsole(dir: string, at: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pages-ab-"));
  children.push(
    spawn(process.execPath, ["build/app/server.js"], {
      cwd: dir,
      env: { ...process.env, NODE_ENV: "production", PORT: String(at), DATABASE_PATH: path.join(dataDir, "console.db"), LOG_REQUESTS: "false" },
      stdio: ["ignore", "ignore", "inherit"],
    }),
  );
  const url = `http://127.0.0.1:${at}`;
  await up(`${url}/healthz`);
  const cookie = await devSignIn(url, "Bench", "bench@bench.test");
  await fetch(`${url}/api/v1/organizations`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify({ name: "Bench Co" }),
  });
  return { url, cookie };
}

try {
  const bareRemix = await startBareRemix(port + 3);
  stops.push(bareRemix.stop);
  const bare = bareRemix.url;
  const builds = [
    ["before", await startConsole(path.resolve(base), port + 1)],
    ["after", await startConsole(root, port + 2)],
  ] as const;
  const targets = [{ name: "bare", url: `${bare}/`, headers: {} }];
  for (const [name, c] of builds) {
    for (const page of ["/terms", "/team", "/tokens", "/billing"]) {
      targets.push({ name: `${name} ${page}`, url: `${c.url}${page}`, headers: { cookie: page === "/terms" ? "CH-time-zone=UTC" : c.cookie } });
    }
  }
  const figures = await interleaved(targets, Number(process.env.BENCH_ROUNDS ?? 3), 4);
  const bareRps = figures.get("bare")!.reqPerSec;
  for (const [name, f] of figures)
    console.log(`${name.padEnd(16)} ${f.reqPerSec.toFixed(0).padStart(6)} req/s  ${(f.reqPerSec / bareRps).toFixed(2)}× bare  p50 ${f.p50Ms} ms`);
} finally {
  for (const child of children) child.kill();
  for (const stop of stops) stop();
}
