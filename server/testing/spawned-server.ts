import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";

export interface SpawnedServer {
  /** The server's process id (its memory can be read from /proc). */
  pid: number;
  /** Stops the process and removes its data folder. */
  stop: () => void;
  /** What the process has written to its standard output and error so far. */
  output: () => string;
}

/**
 * The server as it runs, in a process of its own on `port` (tsx, development mode, development
 * sign-in, a fresh SQLite folder, no APP_ORIGIN: http://localhost:PORT), with `env` on top. Resolves
 * once `/healthz` answers.
 */
export async function spawnServer(port: number, env: Record<string, string> = {}): Promise<SpawnedServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "spawned-server-"));
  const child = spawn(process.execPath, ["--import", "tsx", "server/index.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "development",
      PORT: String(port),
      DATABASE_PATH: path.join(dataDir, "console.db"),
      LOG_REQUESTS: "false",
      APP_ORIGIN: "",
      VITEST: "",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const stop = () => {
    child.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  while (!(await healthy(port))) {
    if (Date.now() > deadline || child.exitCode !== null) {
      stop();
      throw new Error(`server on ${port} did not start`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { pid: child.pid!, stop, output: () => output };
}

function healthy(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path: "/healthz", headers: { host: `localhost:${port}` }, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("error", () => resolve(false));
  });
}
