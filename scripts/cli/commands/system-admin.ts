import { grantSystemAdmin, revokeSystemAdmin } from "../../../platform/auth/service";
import { sql } from "kysely";
import { PlatformError } from "../../../platform/http/errors";
import { containsPattern, foldForSearch } from "../../../platform/http/names";
import type { Command } from "../command";
import { withDatabase } from "../command";

export const command: Command = {
  usage: "[--revoke] EMAIL",
  summary: "makes the users with this verified email admins of the system organization (organization 1); --revoke takes them out of it, never its last admin",
  async run(args) {
    const revoke = args[0] === "--revoke";
    const [rawEmail, ...rest] = revoke ? args.slice(1) : args;
    const email = rawEmail?.trim().toLowerCase();
    if (!email || !email.includes("@") || email.startsWith("-") || rest.length > 0) return 2;
    return withDatabase(async (deps) => {
      // Emails are stored as the provider gave them, and matched in any case, folded as /team's search
      // folds them: SQLite's lower() folds A–Z alone, so Ömer@Örnek.test was not found (decision 0139).
      const folded = foldForSearch(email);
      const users = (
        await deps.db
          .selectFrom("users")
          .select(["id", "name", "email", "email_verified"])
          .where((eb) =>
            eb.or([
              eb("search_text", "like", sql<string>`${containsPattern(email)} escape '\\'`),
              // A user an older build signed in has no search text yet.
              eb(eb.fn("lower", ["email"]), "=", email),
            ]),
          )
          .orderBy("id")
          .execute()
      ).filter((user) => foldForSearch(user.email) === folded);
      if (users.length === 0) {
        console.error(revoke ? `No user has the email ${email}.` : `No user with the email ${email} has signed in yet. Sign in once, then run this again.`);
        return 1;
      }
      if (!revoke) {
        // As SYSTEM_ADMINS at sign-in (DESIGN §3): only an address the provider verified. Anyone can open
        // a GitHub account whose unverified primary address is the operator's, and sign in with it.
        for (const user of users.filter((u) => !u.email_verified)) {
          console.error(`Not granted to ${user.name} (user ${user.id}): their provider has not verified ${user.email}.`);
        }
        const verified = users.filter((u) => u.email_verified);
        for (const user of verified) {
          const changed = await grantSystemAdmin(deps, user.id, "command line");
          console.log(`${user.name} ${changed ? "is now" : "was already"} admin of the system organization.`);
        }
        return verified.length > 0 ? 0 : 1;
      }
      let removed;
      try {
        removed = await revokeSystemAdmin(
          deps,
          users.map((u) => u.id),
        );
      } catch (error) {
        if (!(error instanceof PlatformError) || error.status !== 409) throw error;
        console.error(
          `Not revoked: ${users.map((u) => u.name).join(", ")} would leave the system organization without an admin (${error.message.toLowerCase()}). Make someone else admin first: system-admin EMAIL.`,
        );
        return 1;
      }
      for (const user of users) {
        const member = removed.find((m) => m.id === user.id);
        console.log(member ? `${user.name} is no longer in the system organization (was ${member.role}).` : `${user.name} was not in the system organization.`);
      }
      // The server grants again at sign-in whoever SYSTEM_ADMINS lists; this shell may have the same setting.
      const listed = (process.env.SYSTEM_ADMINS ?? "").split(",").map((e) => e.trim().toLowerCase());
      if (removed.length > 0 && listed.includes(email)) {
        console.error(`${email} is in SYSTEM_ADMINS: take it out of the server's SYSTEM_ADMINS too, or its next sign-in makes it admin again.`);
      }
      return 0;
    });
  },
};
