import { execFile } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { migrate, openDatabase } from "../../platform/db";
import { userSearchText } from "../../platform/http/names";

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
    // An email with capitals beyond A–Z, as a provider may give it, typed in lower case.
    const omer = { name: "Ömer", email: "Ömer@Örnek.test" };
    await db
      .insertInto("users")
      .values({ ...omer, search_text: userSearchText(omer), email_verified: 1, created_at: Date.now() })
      .execute();
    const folded = await run(process.execPath, ["--import", "tsx", "scripts/system-admin.ts", "ömer@örnek.test"], { env });
    expect(folded.stdout).toMatch(/Ömer is now admin of the system organization/);
    await expect(run(process.execPath, ["--import", "tsx", "scripts/system-admin.ts", "nobody@example.test"], { env })).rejects.toMatchObject({
      stderr: expect.stringMatching(/No user with the email/),
    });
    await db.destroy();
  }, 60_000);
});
