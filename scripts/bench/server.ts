import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";

export interface RunningServer {
  baseURL: string;
  dataDir: string;
  stop: () => void;
}

/** Starts the built console (`build/app/server.js`, what `npm run serve` runs) on a loopback port with a fresh database. */
export async function startBuiltServer(port: number, env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = path.join(os.tmpdir(), `console-bench-${process.pid}-${port}`);
  const child = spawn(process.execPath, [...(process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? []), "build/app/server.js"], {
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), DATABASE_PATH: path.join(dataDir, "console.db"), LOG_REQUESTS: "false", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const baseURL = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${baseURL}/healthz`)).ok) break;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error("server did not start");
    await new Promise((r) => setTimeout(r, 250));
  }
  return { baseURL, dataDir, stop: () => void child.kill() };
}

/** Signs a user in through development sign-in with plain HTTP and returns the session cookie. */
export async function devSignIn(baseURL: string, name: string, email: string): Promise<string> {
  const start = await fetch(`${baseURL}/api/v1/auth/google`, { redirect: "manual" });
  const flow = start.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const authorize = new URL(start.headers.get("location")!, baseURL);
  const form = new URLSearchParams({ ...Object.fromEntries(authorize.searchParams), name, email });
  const issued = await fetch(`${baseURL}/api/v1/auth/dev/authorize`, { method: "POST", body: form, redirect: "manual" });
  const callback = new URL(issued.headers.get("location")!);
  const done = await fetch(`${baseURL}${callback.pathname}${callback.search}`, { headers: { cookie: flow }, redirect: "manual" });
  const sid = done.headers.getSetCookie().find((c) => c.startsWith("sid="));
  if (!sid) throw new Error("sign-in failed");
  return `${sid.split(";")[0]}; CH-time-zone=UTC`;
}
