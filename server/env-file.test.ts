import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const scripts = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;

/** The options a script gives node before the file it runs. */
function nodeOptions(script: string): string[] {
  const words = script.split(/\s+/);
  const start = words.indexOf("node");
  const file = words.findIndex((w, i) => i > start && w.startsWith("build/"));
  expect(start, script).toBeGreaterThanOrEqual(0);
  return words.slice(start + 1, file);
}

describe(".env (audit F M6)", () => {
  it("is read by npm run serve (so npm start) and the operator commands, when it exists, under what the environment says", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "env-file-"));
    try {
      for (const name of ["serve", "cli", "system-admin", "billing-mode", "grant-credit"]) {
        const options = nodeOptions(scripts[name]);
        const run = (env: Record<string, string> = {}) =>
          execFileSync(process.execPath, [...options, "-p", "`${process.env.PORT}/${process.env.LOG_REQUESTS}`"], {
            cwd: dir,
            env: { NODE_ENV: "test", PATH: process.env.PATH, ...env },
            encoding: "utf8",
          }).trim();
        expect(run(), `${name} without .env`).toBe("undefined/undefined");
        fs.writeFileSync(path.join(dir, ".env"), "PORT=3668\nLOG_REQUESTS=false\n");
        expect(run(), name).toBe("3668/false");
        expect(run({ PORT: "4000" }), `${name}: the environment wins`).toBe("4000/false");
        fs.rmSync(path.join(dir, ".env"));
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
