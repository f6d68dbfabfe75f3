import { grantSystemAdmin } from "../../../platform/auth/service";
import type { Command } from "../command";
import { withDatabase } from "../command";

export const command: Command = {
  usage: "EMAIL",
  summary: "makes the users with this email admins of the system organization (organization 1)",
  async run([rawEmail]) {
    const email = rawEmail?.trim().toLowerCase();
    if (!email || !email.includes("@")) return 2;
    return withDatabase(async (db) => {
      const users = await db
        .selectFrom("users")
        .select(["id", "name"])
        .where((eb) => eb(eb.fn("lower", ["email"]), "=", email))
        .execute();
      if (users.length === 0) {
        console.error(`No user with the email ${email} has signed in yet. Sign in once, then run this again.`);
        return 1;
      }
      for (const user of users) await grantSystemAdmin({ db, now: Date.now }, user.id);
      console.log(`${users.map((u) => u.name).join(", ")} ${users.length === 1 ? "is" : "are"} now admin of the system organization.`);
      return 0;
    });
  },
};
