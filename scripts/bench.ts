/**
 * The budgets of DESIGN §7, measured and reported (not gated: two shared cores are noisy, so compare
 * the ratios from one run). Run after `npm run build`: `npm run bench`.
 */
import autocannon from "autocannon";
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

async function main() {
  const server = await startBuiltServer(3900);
  const report: Record<string, string> = {};
  try {
    await devSignIn(server.baseURL, "Operator", "operator@bench.test");
    const cookie = await devSignIn(server.baseURL, "Bench", "bench@bench.test");
    const created = await fetch(`${server.baseURL}/api/v1/organizations`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ name: "Bench Co" }),
    });
    if (!created.ok) throw new Error("could not create the organization");

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
  } finally {
    server.stop();
  }
  const width = Math.max(...Object.keys(report).map((k) => k.length));
  for (const [k, v] of Object.entries(report)) console.log(`${k.padEnd(width)}  ${v}`);
}

await main();
