/**
 * The organization pages of two builds against the bare Remix app, in one interleaved run: before and
 * after a change, under the same load (decision 0087, third pass). Build both first (`npm run build`
 * here, and in a copy of the older commit, e.g. `git archive <commit> | tar -x -C /tmp/base`, with a
 * node_modules link, then `npm run build` there); the bare app is built here as `npm run bench` does:
 *   BENCH_BASE=/tmp/base BENCH_PORT=4100 tsx scripts/bench/pages-ab.ts
 * BENCH_PAGES (comma-separated) picks the pages, BENCH_ROUNDS the rounds (3).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { buildBareRemix, startBareRemix } from "./api";
import { devSignIn } from "./server";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const base = process.env.BENCH_BASE;
if (!base) throw new Error("BENCH_BASE: the folder of the build to compare with");
const port = Number(process.env.BENCH_PORT ?? 3900);
// BENCH_PAGES=/terms,/task-home compares other pages (a page in the organization layout with no data of its own, say).
const pages = (process.env.BENCH_PAGES ?? "/terms,/team,/tokens,/billing").split(",");

/** What to stop at the end: every server this run started. */
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
  const child = spawn(process.execPath, ["build/app/server.js"], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: "production", PORT: String(at), DATABASE_PATH: path.join(dataDir, "console.db"), LOG_REQUESTS: "false" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  stops.push(() => child.kill());
  const url = `http://127.0.0.1:${at}`;
  await up(`${url}/healthz`);
  const cookie = await devSignIn(url, "Bench", "bench@bench.test");
  await fetch(`${url}/api/v1/organizations`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify({ name: "Bench Co" }),
  });
  return { url, cookie, pid: child.pid! };
}

/** The process's CPU time so far, in milliseconds (Linux: utime + stime, 100 ticks a second). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  // Built as the bench builds it, on the registry's packages (decision 0119); its CPU time is read too.
  buildBareRemix();
  const bare = await startBareRemix(port + 3);
  stops.push(bare.stop);
  const builds = [
    ["before", await startConsole(path.resolve(base), port + 1)],
    ["after", await startConsole(root, port + 2)],
  ] as const;
  const targets = [{ name: "bare", url: `${bare.url}/`, cookie: "", pid: bare.pid }];
  for (const [name, c] of builds) {
    for (const page of pages) {
      targets.push({ name: `${name} ${page}`, url: `${c.url}${page}`, cookie: page === "/terms" ? "CH-time-zone=UTC" : c.cookie, pid: c.pid });
    }
  }
  const run = (t: (typeof targets)[number], duration: number) => autocannon({ url: t.url, headers: { cookie: t.cookie }, connections: 10, duration });
  for (const target of targets) await run(target, 1);
  const rps = new Map<string, number[]>();
  const cpu = new Map<string, number[]>();
  for (let round = 0; round < Number(process.env.BENCH_ROUNDS ?? 3); round++) {
    for (const target of targets) {
      const before = cpuMs(target.pid);
      const result = await run(target, 4);
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.name}: ${result.non2xx} answers were not 2xx, ${result.errors} errors`);
      rps.set(target.name, [...(rps.get(target.name) ?? []), result.requests.average]);
      cpu.set(target.name, [...(cpu.get(target.name) ?? []), (cpuMs(target.pid) - before) / result.requests.total]);
    }
  }
  // Requests a second move with whatever else the machine runs; CPU time per request much less so.
  const bareRps = median(rps.get("bare")!);
  const bareCpu = median(cpu.get("bare")!);
  for (const { name } of targets) {
    const r = median(rps.get(name)!);
    const c = median(cpu.get(name)!);
    console.log(
      `${name.padEnd(16)} ${r.toFixed(0).padStart(6)} req/s ${(r / bareRps).toFixed(2)}× bare   ${c.toFixed(2)} CPU ms a request ${(bareCpu / c).toFixed(2)}× bare`,
    );
  }
} finally {
  for (const stop of stops) stop();
}
