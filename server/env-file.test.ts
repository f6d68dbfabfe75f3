import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { workerExecArgv } from "../platform/db/wal-checkpointer";

const scripts = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;

/**
 * A script as npm runs it (`sh -c`), with the file it starts replaced by an expression to print: what
 * the shell and node's options make of `.env`, without a build.
 */
function runAs(script: string, cwd: string, env: Record<string, string> = {}) {
  const file = script.search(/ build\//);
  expect(file, script).toBeGreaterThan(0);
  const command = `${script.slice(0, file)} -p 'process.env.PORT + "/" + process.env.LOG_REQUESTS'`;
  const run = spawnSync("sh", ["-c", command], { cwd, env: { NODE_ENV: "test", PATH: process.env.PATH, ...env }, encoding: "utf8" });
  expect(run.status, `${command}: ${run.stderr}`).toBe(0);
  return { out: run.stdout.trim(), err: run.stderr };
}

describe(".env (audit F M6, audit M L9)", () => {
  it("is read by npm run serve (so npm start) and the operator commands, when it exists, under what the environment says", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "env-file-"));
    try {
      for (const name of ["serve", "cli", "system-admin", "billing-mode", "grant-credit", "reverse-credit", "reseal-upstream-keys"]) {
        // Nothing printed without it: Node 20's `--env-file-if-exists` said ".env not found. Continuing
        // without it." at every start, in the logs of every deployment that sets its variables elsewhere.
        expect(runAs(scripts[name], dir), `${name} without .env`).toEqual({ out: "undefined/undefined", err: "" });
        fs.writeFileSync(path.join(dir, ".env"), "PORT=3668\nLOG_REQUESTS=false\n");
        expect(runAs(scripts[name], dir), name).toEqual({ out: "3668/false", err: "" });
        expect(runAs(scripts[name], dir, { PORT: "4000" }).out, `${name}: the environment wins`).toBe("4000/false");
        expect(runAs(scripts[name], dir, { PORT: "" }).out, `${name}: even an empty value`).toBe("/false");
        fs.rmSync(path.join(dir, ".env"));
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is not read again by the SQLite checkpoint worker, which inherits the environment", () => {
    expect(workerExecArgv(["--env-file-if-exists=.env", "--enable-source-maps", "--env-file", ".env", "--env-file=x", "--no-warnings"])).toEqual([
      "--enable-source-maps",
      "--no-warnings",
    ]);
    expect(workerExecArgv([])).toEqual([]);
  });
});
