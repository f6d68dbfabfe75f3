import fs from "node:fs";
import { z } from "zod";
import { DatabaseStartError, openMigrated } from "../../platform/db";
import type { DB } from "../../platform/db";
import { databaseUrl, describeDatabase } from "../../platform/db/target";

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

/** A refusal whose message is all an operator needs: the dispatcher prints it, without a stack, and exits 1. */
export class OperatorError extends Error {}

/** The server's database settings, held to the server's rules (server/env.ts). */
const settings = z.object({
  DATABASE_URL: databaseUrl,
  DATABASE_PATH: z.string().default("data/console.db"),
});

export function databaseSettings(source: Record<string, string | undefined> = process.env): { url?: string; path: string } {
  const parsed = settings.safeParse(source);
  if (!parsed.success) {
    throw new OperatorError(`Invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  return { url: parsed.data.DATABASE_URL, path: parsed.data.DATABASE_PATH };
}

/**
 * The server's database (DATABASE_URL or DATABASE_PATH), migrated, closed after `work`. Which one is
 * said first (on stderr, leaving stdout to the command): run from the wrong folder or without the
 * environment, a command would otherwise act on a new, empty SQLite file without a word.
 */
export async function withDatabase<T>(work: (db: DB) => Promise<T>): Promise<T> {
  const settings = databaseSettings();
  const created = !settings.url && !fs.existsSync(settings.path);
  console.error(`Database: ${describeDatabase(settings)}${created ? " (new: no database was there, so this one is empty)" : ""}`);
  let db: DB;
  try {
    db = await openMigrated(settings);
  } catch (error) {
    throw error instanceof DatabaseStartError ? new OperatorError(error.message) : error;
  }
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}
