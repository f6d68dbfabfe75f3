import { execFile } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { migrate, openDatabase } from "../../platform/db";

const run = promisify(execFile);

describe("npm run system-admin -- EMAIL", () => {
  it("makes an existing user an admin of organization 1, and explains when nobody has that email", async () => {
    const file = path.join(os.tmpdir(), `system-admin-${process.pid}-${Date.now()}.db`);
    const db = openDatabase({ path: file });
    await migrate(db);
    const user = await db
      .insertInto("users")
      .values({ name: "Ops", email: "Ops@Example.test", email_verified: 1, created_at: Date.now() })
      .returning("id")
      .executeTakeFirstOrThrow();
    const env = { ...process.env, DATABASE_PATH: file };
    const ok = await run(process.execPath, ["--import", "tsx", "scripts/system-admin.ts", "ops@example.test"], { env });
    expect(ok.stdout).toMatch(/Ops is now admin of the system organization/);
    const membership = await db.selectFrom("memberships").selectAll().where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(membership).toMatchObject({ org_id: 1, role: "admin" });
    await expect(run(process.execPath, ["--import", "tsx", "scripts/system-admin.ts", "nobody@example.test"], { env })).rejects.toMatchObject({
      stderr: expect.stringMatching(/No user with the email/),
    });
    await db.destroy();
  }, 60_000);
});
