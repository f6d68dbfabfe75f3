/**
 * Loads the console's /openai/v1 alone (no peers), for a CPU profile of the data plane:
 *   npm run build && BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" tsx scripts/bench/profile-api.ts
 * BENCH_STREAM=false (or true) loads only non-streamed (streamed) calls. BENCH_PAGE=/team loads that page with the session instead. Prints req/s and p50 for non-streamed and streamed calls; the profile is written when the server stops.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { devSignIn, startBuiltServer } from "./server";
import { startBenchUpstream } from "./upstream";

const port = Number(process.env.BENCH_PORT ?? 3900);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const upstream = await startBenchUpstream(port + 10);
const modelsFile = path.join(os.tmpdir(), `console-profile-models-${process.pid}.json`);
fs.writeFileSync(
  modelsFile,
  JSON.stringify([
    {
      name: "bench",
      displayName: "Bench",
      provider: "fake",
      contextSize: 8192,
      baseUrl: upstream.url,
      upstreamModel: "echo",
      rateCard: { id: "rc-bench", inputPerMillion: 1, outputPerMillion: 2 },
    },
  ]),
);
const server = await startBuiltServer(port, { MODELS_FILE: modelsFile });
try {
  const cookie = await devSignIn(server.baseURL, "Bench", "bench@bench.test");
  const org = await fetch(`${server.baseURL}/api/v1/organizations`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify({ name: "Bench Co" }),
  });
  const orgId = ((await org.json()) as { id: number }).id;
  execFileSync(process.execPath, ["build/cli.js", "grant-credit", String(orgId), "1000", "bench"], {
    env: { ...process.env, DATABASE_PATH: path.join(server.dataDir, "console.db") },
    stdio: "ignore",
  });
  const created = await fetch(`${server.baseURL}/api/v1/tokens`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify({ scopes: ["chat"], expiresAt: null }),
  });
  const token = ((await created.json()) as { token: string }).token;
  // BENCH_PAGE=/team profiles a console page with the session instead.
  if (process.env.BENCH_PAGE) {
    const result = await autocannon({ url: `${server.baseURL}${process.env.BENCH_PAGE}`, headers: { cookie }, connections: 10, duration: seconds });
    console.log(`${process.env.BENCH_PAGE}: ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, non2xx ${result.non2xx}`);
  }
  for (const stream of process.env.BENCH_PAGE ? [] : [false, true].filter((s) => !process.env.BENCH_STREAM || String(s) === process.env.BENCH_STREAM)) {
    const result = await autocannon({
      url: `${server.baseURL}/openai/v1/chat/completions`,
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ model: "bench", messages: [{ role: "user", content: "Hello, bench." }], ...(stream ? { stream: true } : {}) }),
      connections: 10,
      duration: seconds,
    });
    console.log(
      `${stream ? "streamed" : "json"}: ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, non2xx ${result.non2xx}, errors ${result.errors}`,
    );
  }
} finally {
  server.stop();
  await new Promise((r) => setTimeout(r, 2000));
  await upstream.close();
}
