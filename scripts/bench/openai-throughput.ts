/**
 * /openai/v1 throughput with and without spend reservations (issue 11: "reservations must not halve it").
 * Reservations cannot be turned off, so one fake upstream is served as two models: a free one (nothing
 * held, only the usage row written) and a priced one (the prompt counted, the worst case held, then
 * settled with the ledger row and the balance in one transaction). The priced run also pays for the
 * ledger debit priced requests always had, so its ratio to the free run understates throughput with
 * reservations against without them.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startFakeUpstream } from "../../tests/fakes/openai-upstream";
import { devSignIn, startBuiltServer } from "./server";

export interface OpenAiThroughput {
  freeRps: number;
  pricedRps: number;
}

/** Requests per second of `connections` clients sending `send` back to back for `seconds`. */
async function closedLoop(send: () => Promise<Response>, connections: number, seconds: number): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  const client = async () => {
    while (performance.now() < end) {
      const response = await send();
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`/openai/v1 answered ${response.status}`);
      done += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, client));
  return done / ((performance.now() - started) / 1000);
}

export async function benchOpenAiThroughput(port = 3920, seconds = 8, connections = 10): Promise<OpenAiThroughput> {
  const fake = await startFakeUpstream();
  fake.delayMs = 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-openai-"));
  const modelsFile = path.join(dir, "models.json");
  const model = { displayName: "Bench", provider: "vllm", contextSize: 8192, baseUrl: fake.url, upstreamModel: "echo" };
  fs.writeFileSync(
    modelsFile,
    JSON.stringify([
      { ...model, name: "bench-free" },
      { ...model, name: "bench-priced", rateCard: { id: "rc-bench", inputPerMillion: 1, outputPerMillion: 2 } },
    ]),
  );
  const server = await startBuiltServer(port, { MODELS_FILE: modelsFile });
  try {
    const cookie = await devSignIn(server.baseURL, "Throughput", "throughput@bench.test");
    const json = { cookie, origin: server.baseURL, "content-type": "application/json" };
    const org = await fetch(`${server.baseURL}/api/v1/organizations`, { method: "POST", headers: json, body: JSON.stringify({ name: "Throughput Co" }) });
    if (!org.ok) throw new Error(`create organization answered ${org.status}`);
    const orgId = ((await org.json()) as { id: number }).id;
    // A prepaid balance no run can spend: every priced request is admitted, so both runs do the same work upstream.
    execFileSync(process.execPath, ["--import", "tsx", "scripts/cli/index.ts", "grant-credit", String(orgId), "10000", "bench"], {
      env: { ...process.env, DATABASE_PATH: path.join(server.dataDir, "console.db") },
      stdio: "ignore",
    });
    const created = await fetch(`${server.baseURL}/api/v1/tokens`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ scopes: ["chat"], expiresAt: null }),
    });
    if (created.status !== 201) throw new Error(`create token answered ${created.status}`);
    const secret = ((await created.json()) as { token: string }).token;
    const ask = (name: string) => () =>
      fetch(`${server.baseURL}/openai/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body: JSON.stringify({ model: name, max_tokens: 100, messages: [{ role: "user", content: "Say hello" }] }),
      });
    await closedLoop(ask("bench-free"), connections, 1);
    await closedLoop(ask("bench-priced"), connections, 1);
    // Half of each run before the other's, so drift on the shared cores falls on both alike.
    const half = seconds / 2;
    const free1 = await closedLoop(ask("bench-free"), connections, half);
    const priced1 = await closedLoop(ask("bench-priced"), connections, half);
    const priced2 = await closedLoop(ask("bench-priced"), connections, half);
    const free2 = await closedLoop(ask("bench-free"), connections, half);
    return { freeRps: (free1 + free2) / 2, pricedRps: (priced1 + priced2) / 2 };
  } finally {
    server.stop();
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}
