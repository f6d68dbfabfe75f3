import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { ID_MAX } from "@contract/ids";
import type { Deps } from "../../platform/context";
import { DatabaseStartError, openDatabase, openMigrated } from "../../platform/db";
import type { DatabaseOptions, DB } from "../../platform/db";
import { databaseUrl, describeDatabase } from "../../platform/db/target";
import type { SettingsGroup } from "../../server/env";

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

/**
 * Settings a command reads, held to the server's rules, each alone and together, and refused in its
 * words (server/env.ts). As for the server, an empty value is unset.
 */
export function commandSettings<T extends z.ZodRawShape>(
  settings: SettingsGroup<T>,
  source: Record<string, string | undefined> = process.env,
): z.infer<z.ZodObject<T>> {
  const given = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value.trim() !== ""));
  const parsed = z.object(settings.fields).safeParse(given);
  const problems = [...(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`)), ...(settings.together?.(given) ?? [])];
  if (!parsed.success || problems.length > 0) throw new OperatorError(`Invalid configuration: ${problems.join("; ")}`);
  return parsed.data;
}

/** The server's database settings. */
const settings = {
  fields: {
    DATABASE_URL: databaseUrl,
    DATABASE_PATH: z.string().default("data/console.db"),
  },
};

export function databaseSettings(source: Record<string, string | undefined> = process.env): { url?: string; path: string } {
  const parsed = commandSettings(settings, source);
  return { url: parsed.DATABASE_URL, path: parsed.DATABASE_PATH };
}

/**
 * Who the audit log names for a command's changes: the OS user who ran it. A container run with a uid
 * that has no account has no name, only the uid.
 */
export function operatorName(): string {
  let user: string;
  try {
    user = os.userInfo().username;
  } catch {
    user = typeof process.getuid === "function" ? `uid ${process.getuid()}` : "unknown user";
  }
  return `Command line (${user})`;
}

/**
 * The database, migrated to this build. The commands act on the server's database only: one the
 * console's migrations never ran on is refused, as migrating it would fill, without a word, whatever
 * database a wrong DATABASE_URL names (the server's `postgres` database, another application's), and
 * nothing useful can happen in an empty one (no user has signed in, no organization exists).
 */
async function openExisting(settings: { url?: string; path: string }): Promise<DB> {
  // Without the server's request limits: a command may have migrations to run, which may take long.
  const options = { ...settings, postgresLimits: null };
  if ((await migratedBefore(options)) === false) {
    throw new OperatorError(
      `This database has no console tables (never migrated): check ${settings.url ? "DATABASE_URL" : "DATABASE_PATH"} (the server creates them at its first start).`,
    );
  }
  // As the server starts: what can't be opened, reached or migrated is said in one line, in its words (a
  // SQLite file another connection keeps locked past the busy timeout: "… database is locked"). What
  // migrating did goes to stderr, as "Database: …": stdout is the command's.
  return refusing(() => openMigrated(options, console.error));
}

/** Whether the console's migrations ran on it; undefined when it can't be opened or reached (openMigrated then says why). */
async function migratedBefore(options: DatabaseOptions): Promise<boolean | undefined> {
  // An empty file is a database nothing ever wrote, and opening it would write SQLite's header into it.
  if (!options.url && options.path && options.path !== ":memory:" && fs.statSync(options.path).size === 0) return false;
  let db: DB | undefined;
  try {
    db = openDatabase(options);
    const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
    return tables.some((t) => t.name === "kysely_migration");
  } catch {
    return undefined;
  } finally {
    await db?.destroy().catch(() => {});
  }
}

/** A DatabaseStartError's message is all an operator needs: a refusal. */
async function refusing<T>(open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    throw error instanceof DatabaseStartError ? new OperatorError(error.message) : error;
  }
}

/**
 * The server's database (DATABASE_URL or DATABASE_PATH), migrated, closed after `work`; `deps` name the
 * operator as the actor of what they record. A database that isn't there is refused, and nothing is
 * created: run from the wrong folder or without the environment, a command used to make a new, empty
 * SQLite file (and its folder) and act on it. Which database is used is said first (on stderr, leaving
 * stdout to the command).
 */
export async function withDatabase<T>(work: (deps: Deps) => Promise<T>): Promise<T> {
  const settings = databaseSettings();
  if (!settings.url && settings.path !== ":memory:" && !fs.existsSync(settings.path)) {
    throw new OperatorError(
      `No database at ${path.resolve(settings.path)}: check DATABASE_PATH, or the folder you run from (the server creates it at its first start).`,
    );
  }
  console.error(`Database: ${describeDatabase(settings)}`);
  const db = await openExisting(settings);
  const deps: Deps = {
    db,
    now: Date.now,
    config: { sessionSecret: "", orgSignupEnabled: true, systemAdmins: [], oauth: {}, allowDevSignin: false },
    operator: operatorName(),
  };
  try {
    return await work(deps);
  } finally {
    await db.destroy();
  }
}

/**
 * A command's free text (a reason): the words after its other arguments, joined by spaces. Undefined,
 * a bad argument, when there is none (refused before the database is opened, let alone migrated), or
 * when a word starts with "-": an option the command doesn't have (`--dry-run`, `-n`, `--reason x`)
 * was taken for the reason, and money really moved. After `--` every word is text, a leading dash too
 * (`grant-credit 2 5 -- -weird reason`). A word given empty (`""`) is text, for the command's rules to refuse.
 */
export function textArgument(words: string[]): string | undefined {
  const end = words.indexOf("--");
  const before = end === -1 ? words : words.slice(0, end);
  if (before.some((word) => word.startsWith("-"))) return undefined;
  const text = end === -1 ? words : [...before, ...words.slice(end + 1)];
  return text.length > 0 ? text.join(" ") : undefined;
}

/**
 * An organization id as typed: digits only. `Number()` read `0x2`, `2.0` and `1e0` as ids, so a
 * command acted on another organization than the one the operator meant to type.
 */
export function organizationId(raw: string | undefined): number | undefined {
  if (!raw || !/^\d+$/.test(raw)) return undefined;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id >= 1 ? id : undefined;
}

/** An organization's id and name, or the refusal every command gives for an id that isn't one. */
export async function organization(deps: Deps, orgId: number): Promise<{ id: number; name: string }> {
  // Past the largest id there is none: PostgreSQL would refuse the comparison itself (decision 0127).
  if (!Number.isSafeInteger(orgId) || orgId < 1 || orgId > ID_MAX) throw new OperatorError(`No organization with id ${orgId}`);
  const org = await deps.db.selectFrom("organizations").select(["id", "name"]).where("id", "=", orgId).executeTakeFirst();
  if (!org) throw new OperatorError(`No organization with id ${orgId}`);
  return org;
}
