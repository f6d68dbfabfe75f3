/**
 * Makes the users with this email admins of the system organization (organization 1):
 *   npm run system-admin -- someone@example.com
 * Uses the same database settings as the server (DATABASE_URL or DATABASE_PATH).
 */
import { grantSystemAdmin } from "../platform/auth/service";
import { migrate, openDatabase } from "../platform/db";

const email = process.argv[2]?.trim().toLowerCase();
if (!email || !email.includes("@")) {
  console.error("Usage: npm run system-admin -- EMAIL");
  process.exit(2);
}

const db = openDatabase({ url: process.env.DATABASE_URL, path: process.env.DATABASE_PATH ?? "data/console.db" });
try {
  await migrate(db);
  const users = await db.selectFrom("users").select(["id", "name"]).where((eb) => eb(eb.fn("lower", ["email"]), "=", email)).execute();
  if (users.length === 0) {
    console.error(`No user with the email ${email} has signed in yet. Sign in once, then run this again.`);
    process.exitCode = 1;
  } else {
    for (const user of users) await grantSystemAdmin({ db, now: Date.now }, user.id);
    console.log(`${users.map((u) => u.name).join(", ")} ${users.length === 1 ? "is" : "are"} now admin of the system organization.`);
  }
} finally {
  await db.destroy();
}
