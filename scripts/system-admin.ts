/**
 * Makes the users with this email admins of the system organization (organization 1), in development:
 *   npx tsx scripts/system-admin.ts someone@example.com
 * The compiled form is `npm run system-admin -- EMAIL` (scripts/cli/commands/system-admin.ts).
 */
import { main } from "./cli/index";

process.exitCode = await main(["system-admin", ...process.argv.slice(2)], "npm run system-admin --");
