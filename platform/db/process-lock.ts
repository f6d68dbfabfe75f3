import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { DatabaseStartError } from "./index";

export interface ProcessLock {
  release: () => void;
}

/**
 * The one server process a SQLite file may have (decision 0105): a second one is refused at start.
 * The lock is SQLite's own on a file beside the database (`<file>-lock`), taken exclusively and never
 * given back while the process lives; the kernel drops it when the process dies, however it dies, so a
 * restart after a crash is never refused. It is a separate file so the operator commands and online
 * backups still open the database itself.
 */
export function lockDatabaseFile(file: string): ProcessLock {
  let lock: SQLite.Database;
  try {
    const folder = path.dirname(path.resolve(file));
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    // By the file's real name: a symbolic link to a database in use must not lock a file of its own.
    const real = fs.existsSync(file) ? fs.realpathSync(file) : path.join(fs.realpathSync(folder), path.basename(file));
    lock = new SQLite(`${real}-lock`, { timeout: 0 });
    lock.exec("begin exclusive");
  } catch (error) {
    const busy = (error as { code?: string }).code === "SQLITE_BUSY";
    throw new DatabaseStartError(
      busy
        ? `Another server process is using DATABASE_PATH (${file}): SQLite serves one process. Stop it first, or use PostgreSQL (DATABASE_URL) for several.`
        : `Cannot lock DATABASE_PATH (${file}) for this process: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return {
    release: () => {
      if (lock.inTransaction) lock.exec("rollback");
      lock.close();
    },
  };
}
