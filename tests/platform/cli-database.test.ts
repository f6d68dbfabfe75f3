import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { migrate, openDatabase } from "../../platform/db";
import { describeDatabase } from "../../platform/db/target";
import { main } from "../../scripts/cli/index";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("the operator commands' database settings", () => {
  it("refuse a DATABASE_URL that is not PostgreSQL's, in one line, without touching a SQLite file", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-db-"));
    vi.stubEnv("DATABASE_PATH", path.join(dir, "console.db"));
    vi.stubEnv("DATABASE_URL", "mysql://u:secret@localhost/db");
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await main(["grant-credit", "2", "1", "why"])).toBe(1);
    expect(errors.mock.calls.flat().join("\n")).toBe("Invalid configuration: DATABASE_URL: must be a postgres:// or postgresql:// URL");
    expect(fs.readdirSync(dir)).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("say in one line that the database can't be opened", async () => {
    vi.stubEnv("DATABASE_URL", "");
    vi.stubEnv("DATABASE_PATH", os.tmpdir());
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await main(["grant-credit", "2", "1", "why"])).toBe(1);
    expect(errors.mock.calls.flat().join("\n")).toBe(
      `Database: SQLite ${os.tmpdir()}\nCannot open DATABASE_PATH (${os.tmpdir()}): unable to open database file`,
    );
  });

  it("say which database they opened before acting, never the password (audit F L8)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-db-"));
    const file = path.join(dir, "console.db");
    vi.stubEnv("DATABASE_URL", "");
    vi.stubEnv("DATABASE_PATH", file);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    // No file there: refused, nothing made (audit M L7; tests/platform/operator-commands.test.ts).
    expect(await main(["grant-credit", "2", "1", "why"])).toBe(1);
    expect(fs.readdirSync(dir)).toEqual([]);
    const db = openDatabase({ path: file });
    await migrate(db);
    await db.destroy();
    errors.mockClear();
    expect(await main(["grant-credit", "2", "1", "why"])).toBe(1);
    expect(errors.mock.calls.flat()).toEqual([`Database: SQLite ${file}`, "No organization with id 2"]);
    fs.rmSync(dir, { recursive: true, force: true });

    expect(describeDatabase({ url: "postgres://console:hunter2@db.internal:5432/console" })).toBe("PostgreSQL db.internal:5432/console");
  });
});
