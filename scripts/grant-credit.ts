/**
 * Grants an organization a credit, in development:
 *   npx tsx scripts/grant-credit.ts ORG_ID AMOUNT "reason"
 * The compiled form is `npm run grant-credit -- ORG_ID AMOUNT "reason"` (scripts/cli/commands/grant-credit.ts).
 */
import { main } from "./cli/index";

process.exitCode = await main(["grant-credit", ...process.argv.slice(2)], "npm run grant-credit --");
