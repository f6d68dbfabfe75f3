/**
 * The operator commands, one file each in scripts/cli/commands/ (adding a command is adding a file):
 *   node build/cli.js COMMAND ARGS…        the compiled form (production, the container)
 *   npm run system-admin -- EMAIL          the npm shortcuts run the compiled form
 *   npx tsx scripts/cli/index.ts COMMAND   development, without a build
 * They use the server's database settings (DATABASE_URL, or DATABASE_PATH, default data/console.db).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "./command";
import { OperatorError } from "./command";

// The compiled CLI can't list a folder at run time: the build passes the names (scripts/build-server.mjs).
declare const __CLI_COMMANDS__: string[] | undefined;

function commandNames(): string[] {
  if (typeof __CLI_COMMANDS__ !== "undefined") return __CLI_COMMANDS__;
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), "commands");
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .map((f) => f.slice(0, -3))
    .sort();
}

async function load(name: string): Promise<Command> {
  // A template import: esbuild bundles every file the pattern matches, tsx resolves it at run time.
  const module = (await import(`./commands/${name}.ts`)) as { command: Command };
  return module.command;
}

const HELP_FLAGS = ["--help", "-h"];

export async function main(argv: string[], program = "node build/cli.js"): Promise<number> {
  const [name, ...args] = argv;
  const names = commandNames();
  if (!name || !names.includes(name)) {
    // Asked for, the list is the answer (stdout, 0); otherwise it explains a mistake (stderr, 2).
    const asked = name !== undefined && (name === "help" || HELP_FLAGS.includes(name));
    const print = asked ? console.log : console.error;
    if (name && !asked) console.error(`Unknown command: ${name}`);
    print(`Usage: ${program} COMMAND ARGS…\n`);
    for (const n of names) {
      const c = await load(n);
      print(`  ${n} ${c.usage}\n      ${c.summary}`);
    }
    return asked ? 0 : 2;
  }
  const command = await load(name);
  // After `--` a word is a command's text (a reason), even "-h".
  const end = args.indexOf("--");
  if ((end === -1 ? args : args.slice(0, end)).some((a) => HELP_FLAGS.includes(a))) {
    console.log(`Usage: ${program} ${name} ${command.usage}\n  ${command.summary}`);
    return 0;
  }
  let status: number;
  try {
    status = await command.run(args);
  } catch (error) {
    if (!(error instanceof OperatorError)) throw error;
    console.error(error.message);
    return 1;
  }
  if (status === 2) console.error(`Usage: ${program} ${name} ${command.usage}`);
  return status;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
