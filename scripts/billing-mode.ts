/**
 * Sets an organization's payment mode, in development:
 *   npx tsx scripts/billing-mode.ts ORG_ID manual|auto|invoice
 * The compiled form is `npm run billing-mode -- ORG_ID MODE` (scripts/cli/commands/billing-mode.ts).
 */
import { main } from "./cli/index";

process.exitCode = await main(["billing-mode", ...process.argv.slice(2)], "npm run billing-mode --");
