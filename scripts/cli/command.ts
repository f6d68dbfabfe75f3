import { migrate, openDatabase } from "../../platform/db";
import type { DB } from "../../platform/db";

/**
 * An operator command: one file in scripts/cli/commands/, named as it is typed
 * (`node build/cli.js NAME ARGS…`), exporting `command`.
 */
export interface Command {
  /** The arguments, for the usage line: `EMAIL`, `ORG_ID manual|auto|invoice`. */
  usage: string;
  /** What it does, one line. */
  summary: string;
  /** The exit status: 0 done, 1 refused (nothing changed), 2 bad arguments. */
  run: (args: string[]) => Promise<number>;
}

/** The server's database (DATABASE_URL or DATABASE_PATH), migrated, closed after `work`. */
export async function withDatabase<T>(work: (db: DB) => Promise<T>): Promise<T> {
  const db = openDatabase({ url: process.env.DATABASE_URL, path: process.env.DATABASE_PATH ?? "data/console.db" });
  try {
    await migrate(db);
    return await work(db);
  } finally {
    await db.destroy();
  }
}
