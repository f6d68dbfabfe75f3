import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { creditPayment } from "../../platform/billing/ledger";
import type { Deps } from "../../platform/context";
import { openDatabase, openMigrated } from "../../platform/db";
import { lockDatabaseFile } from "../../platform/db/process-lock";
import { reserve } from "../../platform/spend/reservations";
import { spawnServer } from "../../server/testing/spawned-server";

const PORT = Number(process.env.PROCESS_LOCK_TEST_PORT ?? 4003);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "process-lock-"));
const file = path.join(dir, "console.db");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const config = { sessionSecret: "test-secret-test-secret-test-secret", orgSignupEnabled: true, systemAdmins: [], oauth: {}, allowDevSignin: false };

/** The server started once more on the same file: how it exited and what it said. */
function startAnother(): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "server/index.ts"], {
    env: { ...process.env, NODE_ENV: "development", PORT: String(PORT + 1), DATABASE_PATH: file, LOG_REQUESTS: "false", APP_ORIGIN: "", VITEST: "" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  return new Promise((resolve) =>
    child.on("exit", (code) => {
      clearTimeout(killer);
      resolve({ code, stderr });
    }),
  );
}

async function holds() {
  const db = openDatabase({ path: file });
  try {
    const rows = await db.selectFrom("spend_reservations").select("receipt_id").execute();
    const account = await db.selectFrom("billing_accounts").select(["reserved_micros", "balance_micros"]).where("org_id", "=", 1).executeTakeFirstOrThrow();
    return { receipts: rows.map((r) => r.receipt_id), ...account };
  } finally {
    await db.destroy();
  }
}

describe("one server process per SQLite file (decision 0105)", () => {
  it("finishes a dead process's holds at start, refuses a second process, and lets a restart after a crash in", async () => {
    // A process died holding $2 of the system organization's $10: its hold is still in the file.
    const db = await openMigrated({ path: file });
    const deps: Deps = { db, config, now: Date.now };
    await creditPayment(deps, { orgId: 1, paymentIntentId: "pi_process_lock", amountMicros: 10e6, description: "Test funds" });
    await reserve(deps, { orgId: 1, tokenId: null, receiptId: "rcpt_left_by_a_crash", amountMicros: 2e6 });
    await db.destroy();
    expect(await holds()).toEqual({ receipts: ["rcpt_left_by_a_crash"], reserved_micros: 2e6, balance_micros: 10e6 });

    const first = await spawnServer(PORT, { DATABASE_PATH: file });
    try {
      // Released at start, not at its expiry minutes later: the money is the organization's again.
      await expect.poll(holds, { timeout: 10_000 }).toEqual({ receipts: [], reserved_micros: 0, balance_micros: 10e6 });

      const second = await startAnother();
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(
        `Another server process is using DATABASE_PATH (${file}): SQLite serves one process. Stop it first, or use PostgreSQL (DATABASE_URL) for several.`,
      );
    } finally {
      process.kill(first.pid, "SIGKILL");
      first.stop();
    }

    // Killed, not stopped: the lock went with the process, and the next start is not refused.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const restarted = await spawnServer(PORT, { DATABASE_PATH: file });
    restarted.stop();
  }, 90_000);

  it("knows the file by its real name: a symbolic link to it is refused too", () => {
    const real = path.join(dir, "real.db");
    const link = path.join(dir, "link.db");
    fs.writeFileSync(real, "");
    fs.symlinkSync(real, link);
    const lock = lockDatabaseFile(real);
    try {
      expect(() => lockDatabaseFile(link)).toThrow(`Another server process is using DATABASE_PATH (${link})`);
    } finally {
      lock.release();
    }
    lockDatabaseFile(link).release();
  });
});
