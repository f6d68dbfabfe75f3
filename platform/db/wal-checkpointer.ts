import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** How often the worker moves the write-ahead log into the database file. */
export const CHECKPOINT_INTERVAL_MS = 250;

// A script, not a module: the same text runs from the sources (tsx, tests) and from the compiled
// server, where a worker file beside the bundle would need a build entry of its own.
const WORKER = `
const { workerData } = require("node:worker_threads");
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file);
setInterval(() => {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch (error) {
    // Busy or locked for a moment: the next round checkpoints what is left.
  }
}, workerData.intervalMs);
`;

/**
 * The process's Node options, less `--env-file` and `--env-file-if-exists` (with their value, written
 * `--flag=.env` or `--flag .env`). A worker inherits the options unless told otherwise, and needs no
 * env-file: it inherits the environment, .env's variables included. Audit M (L9) saw Node's ".env not
 * found. Continuing without it." printed a second time, from this worker.
 */
export function workerExecArgv(execArgv: readonly string[] = process.execArgv): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const option = execArgv[i];
    if (/^--env-file(-if-exists)?=/.test(option)) continue;
    if (option === "--env-file" || option === "--env-file-if-exists") {
      i++;
      continue;
    }
    kept.push(option);
  }
  return kept;
}

/**
 * Checkpoints a SQLite file in WAL mode from a worker thread, and turns the connection's own automatic
 * checkpoints off. SQLite otherwise checkpoints inside whichever commit passes 1,000 pages of log: the
 * copy into the database file and its fsync then run on the event loop, about half of what the two
 * commits of a metered API call cost (decision 0087, third pass). A PASSIVE checkpoint never blocks the
 * server's writes, and the server's next write restarts the log once it has all been copied.
 *
 * If the worker stops for any reason, the connection's automatic checkpoints come back, so the log
 * never grows without bound. Returns the function that stops the worker.
 */
export function checkpointInBackground(connection: { pragma: (source: string) => unknown }, file: string): () => void {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(WORKER, { eval: true, execArgv: workerExecArgv(), workerData: { driver, file, intervalMs: CHECKPOINT_INTERVAL_MS } });
  // Never what keeps the process alive: a graceful shutdown closes the database and ends.
  worker.unref();
  let stopped = false;
  const restore = (error?: Error) => {
    if (stopped) return;
    stopped = true;
    if (error) console.error(`The SQLite checkpoint worker stopped (checkpoints are back on the server's own commits): ${error.message}`);
    connection.pragma("wal_autocheckpoint = 1000");
  };
  worker.on("error", restore);
  worker.on("exit", () => restore());
  connection.pragma("wal_autocheckpoint = 0");
  return () => {
    stopped = true;
    void worker.terminate();
  };
}
