/**
 * The budgets of DESIGN §7, measured and reported (not gated: two shared cores are noisy, so compare
 * the ratios from one run). Run after `npm run build`: `npm run bench`.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import SQLite from "better-sqlite3";
import { benchChat } from "./bench-chat";
import { benchOpenAiThroughput } from "./bench/openai-throughput";
import { apiTargets, buildBareRemix, interleaved, roundRatio, startBareRemix, startPortkey } from "./bench/api";
import type { Figure, Figures } from "./bench/api";
import { devSignIn, startBuiltServer } from "./bench/server";
import { startBenchUpstream } from "./bench/upstream";

/** Ports: the console at BENCH_PORT (default 3900), the upstream and the peers just above it. */
const basePort = Number(process.env.BENCH_PORT ?? 3900);
/** BENCH_ONLY=api runs the API comparison alone, BENCH_ONLY=pages the pages alone, BENCH_ONLY=compare both (while working on either). */
const only = process.env.BENCH_ONLY;

async function firstLoadJavaScript(baseURL: string, path: string): Promise<number> {
  const html = await (await fetch(`${baseURL}${path}`, { headers: { cookie: "CH-time-zone=UTC" } })).text();
  const scripts = new Set([...html.matchAll(/(?:href|src)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]));
  let bytes = 0;
  for (const src of scripts) bytes += (await (await fetch(`${baseURL}${src}`)).arrayBuffer()).byteLength;
  return bytes;
}

/** Median latency of a page over a short run, in milliseconds. */
async function medianLatency(url: string, cookie: string): Promise<number> {
  const result = await autocannon({ url, headers: { cookie }, connections: 2, duration: 5 });
  if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} answers were not 2xx`);
  return result.latency.p50;
}

/** Writes `count` usage rows straight into the bench database's ledger (far faster than the API). */
function fillLedger(dataDir: string, orgId: number, count: number) {
  const db = new SQLite(path.join(dataDir, "console.db"));
  db.pragma("busy_timeout = 10000");
  const insert = db.prepare(
    "insert into ledger_entries (org_id, created_at, description, model, rate_card_id, change_micros, payment_intent_id) values (?, ?, ?, ?, ?, ?, null)",
  );
  const start = Date.now() - count * 1000;
  db.transaction(() => {
    for (let i = 0; i < count; i++) insert.run(orgId, start + i * 1000, "Chat completion", "bench-model", "rc-bench", -1234);
  })();
  db.close();
}

async function createOrganization(baseURL: string, cookie: string, name: string): Promise<number> {
  const response = await fetch(`${baseURL}/api/v1/organizations`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify({ name }),
  });
  if (!response.ok) throw new Error(`could not create ${name}`);
  return ((await response.json()) as { id: number }).id;
}

async function createToken(baseURL: string, cookie: string): Promise<string> {
  const response = await fetch(`${baseURL}/api/v1/tokens`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify({ scopes: ["chat"], expiresAt: null }),
  });
  if (!response.ok) throw new Error(`could not create a token: ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

/** A priced model on the bench upstream, so each call is reserved, settled and written to the ledger. */
function benchModelsFile(upstreamUrl: string): string {
  const file = path.join(os.tmpdir(), `console-bench-models-${process.pid}.json`);
  const model = { name: "bench", displayName: "Bench", provider: "fake", contextSize: 8192, baseUrl: upstreamUrl, upstreamModel: "echo" };
  fs.writeFileSync(file, JSON.stringify([{ ...model, rateCard: { id: "rc-bench", inputPerMillion: 1, outputPerMillion: 2 } }]));
  return file;
}

const figure = (f: Figure) => `${f.reqPerSec.toFixed(0)} req/s, p50 ${f.p50Ms.toFixed(1)} ms`;

/** The data plane against Portkey (DESIGN §7): non-streamed and streamed, one interleaved run each. */
async function benchApi(report: Record<string, string>, consoleURL: string, dataDir: string, cookie: string, orgId: number, upstreamUrl: string) {
  execFileSync(process.execPath, ["build/cli.js", "grant-credit", String(orgId), "1000", "bench"], {
    env: { ...process.env, DATABASE_PATH: path.join(dataDir, "console.db") },
    stdio: "ignore",
  });
  const token = await createToken(consoleURL, cookie);
  const portkey = await startPortkey(basePort + 11, false);
  const portkeyStream = await startPortkey(basePort + 12, true);
  try {
    const targets = apiTargets({ upstreamUrl, portkeyUrl: portkey.url, portkeyStreamUrl: portkeyStream.url, consoleUrl: consoleURL, token, model: "bench" });
    for (const [kind, list] of Object.entries(targets)) {
      const figures = await interleaved(list);
      const [direct, peer, ours] = list.map((t) => figures.get(t.name)!);
      const suffix = kind === "stream" ? ", streamed" : "";
      report[`api: upstream direct${suffix}`] = figure(direct);
      report[`api: through Portkey${suffix}`] = figure(peer);
      report[`api: through /openai/v1${suffix} (auth, reserve, meter, receipt)`] = figure(ours);
      report[`api: /openai/v1 ÷ Portkey req/s${suffix} (budget ≥ 1.0)`] = roundRatio(ours, peer).toFixed(2);
      report[`api: p50 overhead over direct${suffix}, /openai/v1 vs Portkey (budget ≤)`] =
        `${(ours.p50Ms - direct.p50Ms).toFixed(1)} ms vs ${(peer.p50Ms - direct.p50Ms).toFixed(1)} ms`;
      report[`api: /openai/v1 ÷ upstream direct req/s${suffix}`] = roundRatio(ours, direct).toFixed(2);
    }
  } finally {
    portkey.stop();
    portkeyStream.stop();
  }
}

async function main() {
  const upstream = await startBenchUpstream(basePort + 10);
  const server = await startBuiltServer(basePort, { MODELS_FILE: benchModelsFile(upstream.url) });
  const report: Record<string, string> = {};
  try {
    await devSignIn(server.baseURL, "Operator", "operator@bench.test");
    const cookie = await devSignIn(server.baseURL, "Bench", "bench@bench.test");
    const benchOrg = await createOrganization(server.baseURL, cookie, "Bench Co");
    if (only !== "pages") await benchApi(report, server.baseURL, server.dataDir, cookie, benchOrg, upstream.url);
    if (only === "api") return print(report);

    // Pages: the organization pages with a session against a bare Remix app's route (DESIGN §7) and the
    // console's own trivial /terms, one interleaved run. The yardstick runs on Remix as a new app
    // installs it; the same app on the console's patched packages is measured too, for the figures
    // taken before decision 0119.
    buildBareRemix();
    const bare = await startBareRemix(basePort + 30);
    const barePatched = await startBareRemix(basePort + 31, { withConsolePatches: true });
    let pages: Map<string, Figures>;
    let bareJavaScript: number;
    try {
      const page = (name: string, url: string, headers: Record<string, string>) => ({ name, url, headers });
      // Short rounds, many of them: each ratio is taken within a round (roundRatio).
      pages = await interleaved(
        [
          page("bare", `${bare.url}/`, {}),
          page("bare, patched", `${barePatched.url}/`, {}),
          page("/terms", `${server.baseURL}/terms`, { cookie: "CH-time-zone=UTC" }),
          ...["/team", "/tokens", "/billing"].map((p) => page(p, `${server.baseURL}${p}`, { cookie })),
        ],
        Number(process.env.BENCH_ROUNDS ?? 6),
        2,
      );
      bareJavaScript = await firstLoadJavaScript(bare.url, "/");
    } finally {
      bare.stop();
      barePatched.stop();
    }
    const figureOf = (name: string) => pages.get(name)!;
    report["server: bare Remix 2.17 app, one route req/s"] = figureOf("bare").reqPerSec.toFixed(0);
    report["server: the same app on the console's patched packages req/s"] = figureOf("bare, patched").reqPerSec.toFixed(0);
    report["server: /terms (trivial Remix route) req/s"] = figureOf("/terms").reqPerSec.toFixed(0);
    report["server: /team (signed in) req/s"] = figureOf("/team").reqPerSec.toFixed(0);
    report["server: /team ÷ /terms (budget ≥ 0.5)"] = roundRatio(figureOf("/team"), figureOf("/terms")).toFixed(2);
    for (const p of ["/team", "/tokens", "/billing"]) {
      const against = (yardstick: string) => roundRatio(figureOf(p), figureOf(yardstick)).toFixed(2);
      report[`server: ${p} ÷ bare Remix (budget ≥ 0.5)`] = `${against("bare")} (÷ the patched app: ${against("bare, patched")})`;
    }
    report["server: /terms ÷ bare Remix"] = roundRatio(figureOf("/terms"), figureOf("bare")).toFixed(2);
    if (only === "pages" || only === "compare") return print(report);

    // JavaScript on first load of /login against the bare Remix app's page (DESIGN §7), and the console's own shell.
    const login = await firstLoadJavaScript(server.baseURL, "/login");
    const terms = await firstLoadJavaScript(server.baseURL, "/terms");
    report["js: first load of /login (bytes, uncompressed)"] = String(login);
    report["js: first load of the bare Remix app (bytes)"] = String(bareJavaScript);
    report["js: /login ÷ bare Remix app (budget ≤ 1.1)"] = (login / bareJavaScript).toFixed(2);
    report["js: first load of /terms, the console's shell (bytes)"] = String(terms);

    // Scale: /billing with 100 ledger rows against 1,000,000 (keyset pages, a kept balance).
    const bigCookie = await devSignIn(server.baseURL, "Big", "big@bench.test");
    const bigOrg = await createOrganization(server.baseURL, bigCookie, "Big Co");
    const smallCookie = await devSignIn(server.baseURL, "Small", "small@bench.test");
    const smallOrg = await createOrganization(server.baseURL, smallCookie, "Small Co");
    fillLedger(server.dataDir, smallOrg, 100);
    fillLedger(server.dataDir, bigOrg, 1_000_000);
    const small = await medianLatency(`${server.baseURL}/billing`, smallCookie);
    const big = await medianLatency(`${server.baseURL}/billing`, bigCookie);
    report["scale: /billing p50 with 100 ledger rows (ms)"] = String(small);
    report["scale: /billing p50 with 1,000,000 ledger rows (ms)"] = String(big);
  } finally {
    server.stop();
    await upstream.close();
  }
  const chat = await benchChat({ port: basePort + 20 });
  report["chat: time to first token, upstream direct (ms)"] = chat.ttftDirectMs.toFixed(2);
  report["chat: time to first token, through the console (ms)"] = chat.ttftConsoleMs.toFixed(2);
  report["chat: time to first token, platform API alone (ms)"] = chat.ttftPlatformMs.toFixed(2);
  report["chat: within budget (10% or 5 ms)"] = chat.ttftWithinBudget ? "yes" : "no";
  report[`chat: ${chat.concurrentStreams} concurrent streams, errors`] = String(chat.concurrentErrors);
  report["chat: server RSS start → peak → 3 s after (MB)"] = `${chat.rssStartMb.toFixed(0)} → ${chat.rssPeakMb.toFixed(0)} → ${chat.rssAfterMb.toFixed(0)}`;
  // Issue 11: spend reservations must not halve /openai/v1 throughput (scripts/bench/openai-throughput.ts).
  const openai = await benchOpenAiThroughput();
  report["openai: /openai/v1 req/s, free model (nothing held)"] = openai.freeRps.toFixed(0);
  report["openai: /openai/v1 req/s, priced model (reserved, settled)"] = openai.pricedRps.toFixed(0);
  report["openai: priced ÷ free (budget ≥ 0.5)"] = (openai.pricedRps / openai.freeRps).toFixed(2);
  Object.assign(report, usageAtScale());

  print(report);
}

/** Issue 15: /usage?days=90 over 10^3 and 10^6 usage rows, and after a burst (scripts/bench/usage-scale.ts, its own process and database). */
function usageAtScale(): Record<string, string> {
  const out = execFileSync(process.execPath, ["--import", "tsx", "scripts/bench/usage-scale.ts"], { encoding: "utf8", maxBuffer: 1 << 20 });
  const lines = out
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, number>);
  const report: Record<string, string> = {};
  for (const line of lines.filter((l) => l.rows)) {
    if (line.in_last_hour) {
      // A burst: a view reads raw only the roll-up's grace (ten minutes), however far into the hour it runs.
      report[`usage: /usage?days=90 with ${line.rows} rows in the last hour, p50 (ms) (raw rows read: ${line.raw_tail_rows})`] = String(line.report_p50_ms);
      continue;
    }
    report[`usage: /usage?days=90 over ${line.rows} rows, p50 (ms) (first view, rolling up: ${line.first_report_with_rollup_ms})`] = String(line.report_p50_ms);
    report[`usage: the old GROUP BY over ${line.rows} rows (ms)`] = String(line.raw_group_by_p50_ms);
    // On SQLite the roll-up holds the event loop while a transaction runs: the longest any other request waited.
    report[`usage: the first view's roll-up over ${line.rows} rows, longest stall (ms)`] = String(line.first_report_longest_stall_ms);
  }
  const ratio = lines.find((l) => l.report_ratio_large_to_small);
  if (ratio) report["usage: 10^6 ÷ 10^3 rows, report time"] = String(ratio.report_ratio_large_to_small);
  return report;
}

function print(report: Record<string, string>) {
  const width = Math.max(...Object.keys(report).map((k) => k.length));
  for (const [k, v] of Object.entries(report)) console.log(`${k.padEnd(width)}  ${v}`);
}

await main();
