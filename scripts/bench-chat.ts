/**
 * Chat budgets of DESIGN §7, measured on loopback (reported, not gated):
 * - time to first token through the console (resource route → platform → upstream) against calling
 *   the fake upstream directly: within 10 % (or 5 ms);
 * - 100 concurrent streams through one process without errors, with memory back near its start.
 *
 * Starts the fake upstream and the built server (`npm run build` first) with a fresh database.
 * Run: `tsx scripts/bench-chat.ts`, or import { benchChat } from the main bench.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeUpstream } from "../tests/fakes/openai-upstream";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export interface ChatBenchResult {
  ttftDirectMs: number;
  ttftConsoleMs: number;
  /** The platform's /api/v1/chat/completions on the same server, without the console's resource route. */
  ttftPlatformMs: number;
  ttftWithinBudget: boolean;
  concurrentStreams: number;
  concurrentErrors: number;
  rssStartMb: number;
  rssPeakMb: number;
  rssAfterMb: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Milliseconds until the first chunk carrying reply text arrives; then reads the stream to its end. */
async function firstToken(url: string, init: RequestInit): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, init);
  if (!response.ok || !response.body) throw new Error(`${url} answered ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let first = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (!first && /"(content|reasoning_content)":"[^"]/.test(text)) first = performance.now() - started;
  }
  if (!text.includes("[DONE]")) throw new Error("stream ended without [DONE]");
  return first;
}

function cookieOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => !c.endsWith("="))
    .join("; ");
}

async function signIn(base: string): Promise<string> {
  const start = await fetch(`${base}/api/v1/auth/google`, { redirect: "manual" });
  const flow = cookieOf(start);
  const authorize = new URL(start.headers.get("location")!, base);
  const form = new URLSearchParams({ ...Object.fromEntries(authorize.searchParams), name: "Bench", email: `bench-${Date.now()}@example.test` });
  const issued = await fetch(`${base}/api/v1/auth/dev/authorize`, { method: "POST", body: form, redirect: "manual" });
  const callback = new URL(issued.headers.get("location")!, base);
  const done = await fetch(callback, { headers: { cookie: flow }, redirect: "manual" });
  const sid = cookieOf(done)
    .split("; ")
    .filter((c) => c.startsWith("sid="))
    .join("; ");
  const org = await fetch(`${base}/api/v1/organizations`, {
    method: "POST",
    headers: { cookie: sid, "content-type": "application/json" },
    body: JSON.stringify({ name: "Bench" }),
  });
  if (!org.ok) throw new Error(`create organization answered ${org.status}`);
  return sid;
}

export async function benchChat(options: { port?: number; samples?: number; concurrency?: number } = {}): Promise<ChatBenchResult> {
  const port = options.port ?? Number(process.env.BENCH_CHAT_PORT ?? 3590);
  const samples = options.samples ?? 30;
  const concurrency = options.concurrency ?? 100;
  if (!fs.existsSync(path.join(root, "build/server/index.js"))) throw new Error("Build the app first: npm run build");

  const fake = await startFakeUpstream();
  fake.delayMs = 2;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-chat-"));
  const modelsFile = path.join(dir, "models.json");
  fs.writeFileSync(
    modelsFile,
    JSON.stringify([{ name: "bench", displayName: "Bench", provider: "fake", contextSize: 8192, baseUrl: fake.url, upstreamModel: "echo" }]),
  );
  const server = spawn(process.execPath, ["--import", "tsx", "server/index.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATABASE_PATH: path.join(dir, "console.db"),
      MODELS_FILE: modelsFile,
      LOG_REQUESTS: "false",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://localhost:${port}`;
  try {
    for (let i = 0; ; i++) {
      if (i > 300) throw new Error("server did not start");
      const up = await fetch(`${base}/healthz`)
        .then((r) => r.ok)
        .catch(() => false);
      if (up) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const cookie = await signIn(base);
    const body = JSON.stringify({ model: "bench", messages: [{ role: "user", content: "Hello" }] });
    const consoleInit = (): RequestInit => ({ method: "POST", headers: { cookie, origin: base, "content-type": "application/json" }, body });
    const directInit = (): RequestInit => ({
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "echo", messages: [], stream: true }),
    });

    // Warm both paths, then interleave the samples so noise falls on both alike.
    for (let i = 0; i < 5; i++) {
      await firstToken(`${fake.url}/chat/completions`, directInit());
      await firstToken(`${base}/resources/chat`, consoleInit());
    }
    const platformInit = (): RequestInit => ({
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ ...JSON.parse(body), stream: true }),
    });
    const direct: number[] = [];
    const through: number[] = [];
    const platform: number[] = [];
    for (let i = 0; i < samples; i++) {
      direct.push(await firstToken(`${fake.url}/chat/completions`, directInit()));
      through.push(await firstToken(`${base}/resources/chat`, consoleInit()));
      platform.push(await firstToken(`${base}/api/v1/chat/completions`, platformInit()));
    }
    const ttftDirectMs = median(direct);
    const ttftConsoleMs = median(through);

    const pid = server.pid!;
    const rssStartMb = rssMb(pid);
    let rssPeakMb = rssStartMb;
    const sampler = setInterval(() => (rssPeakMb = Math.max(rssPeakMb, rssMb(pid))), 50);
    const results = await Promise.allSettled(Array.from({ length: concurrency }, () => firstToken(`${base}/resources/chat`, consoleInit())));
    clearInterval(sampler);
    const concurrentErrors = results.filter((r) => r.status === "rejected").length;
    await new Promise((r) => setTimeout(r, 3000));
    const rssAfterMb = rssMb(pid);

    return {
      ttftDirectMs,
      ttftConsoleMs,
      ttftPlatformMs: median(platform),
      ttftWithinBudget: ttftConsoleMs <= Math.max(ttftDirectMs * 1.1, ttftDirectMs + 5),
      concurrentStreams: concurrency,
      concurrentErrors,
      rssStartMb,
      rssPeakMb,
      rssAfterMb,
    };
  } finally {
    server.kill("SIGTERM");
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = await benchChat();
  console.log(
    `Chat time to first token: direct ${r.ttftDirectMs.toFixed(2)} ms, through the console ${r.ttftConsoleMs.toFixed(2)} ms, platform alone ${r.ttftPlatformMs.toFixed(2)} ms (${r.ttftWithinBudget ? "within" : "OVER"} budget: 10% or 5 ms)`,
  );
  console.log(
    `${r.concurrentStreams} concurrent streams: ${r.concurrentErrors} errors; server RSS ${r.rssStartMb.toFixed(0)} MB → peak ${r.rssPeakMb.toFixed(0)} MB → ${r.rssAfterMb.toFixed(0)} MB after 3 s`,
  );
}
