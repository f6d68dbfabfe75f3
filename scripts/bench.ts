/**
 * The budgets of DESIGN §7, measured and reported (not gated: two shared cores are noisy, so compare
 * the ratios from one run). Run after `npm run build`: `npm run bench`.
 */
import path from "node:path";
import autocannon from "autocannon";
import SQLite from "better-sqlite3";
import { benchChat } from "./bench-chat";
import { benchOpenAiThroughput } from "./bench/openai-throughput";
import { devSignIn, startBuiltServer } from "./bench/server";

async function requestsPerSecond(url: string, headers: Record<string, string> = {}): Promise<number> {
  const result = await autocannon({ url, headers, connections: 10, duration: 8 });
  if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} answers were not 2xx`);
  return result.requests.average;
}

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

async function main() {
  const server = await startBuiltServer(3900);
  const report: Record<string, string> = {};
  try {
    await devSignIn(server.baseURL, "Operator", "operator@bench.test");
    const cookie = await devSignIn(server.baseURL, "Bench", "bench@bench.test");
    await createOrganization(server.baseURL, cookie, "Bench Co");

    // Server: an organization page with a session against a trivial Remix route on the same server.
    const trivial = await requestsPerSecond(`${server.baseURL}/terms`, { cookie: "CH-time-zone=UTC" });
    const team = await requestsPerSecond(`${server.baseURL}/team`, { cookie });
    report["server: /terms (trivial Remix route) req/s"] = trivial.toFixed(0);
    report["server: /team (signed in) req/s"] = team.toFixed(0);
    report["server: /team ÷ /terms (budget ≥ 0.5)"] = (team / trivial).toFixed(2);

    // JavaScript on first load of /login, and of the framework alone (root + Remix runtime chunks).
    const login = await firstLoadJavaScript(server.baseURL, "/login");
    const terms = await firstLoadJavaScript(server.baseURL, "/terms");
    report["js: first load of /login (bytes, uncompressed)"] = String(login);
    report["js: first load of /terms, the bare shell (bytes)"] = String(terms);
    report["js: /login ÷ bare shell (budget ≤ 1.3)"] = (login / terms).toFixed(2);

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
  }
  const chat = await benchChat();
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

  const width = Math.max(...Object.keys(report).map((k) => k.length));
  for (const [k, v] of Object.entries(report)) console.log(`${k.padEnd(width)}  ${v}`);
}

await main();
