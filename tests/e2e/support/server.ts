import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import path from "node:path";

/**
 * A second console server on its own port and database, for settings the shared e2e server doesn't
 * have. It runs the compiled server the shared one was built with.
 */
export async function startServer(env: Record<string, string>, portOffset: number) {
  const port = Number(process.env.E2E_PORT ?? 3100) + portOffset;
  const dataDir = path.join(process.env.E2E_DATA_DIR!, `extra-${port}`);
  const child: ChildProcess = spawn(process.execPath, ["build/app/server.js"], {
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), DATABASE_PATH: path.join(dataDir, "console.db"), LOG_REQUESTS: "false", ...env },
    stdio: "ignore",
  });
  const baseURL = `http://localhost:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${baseURL}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`server on ${port} did not start`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { baseURL, stop: () => void child.kill() };
}
