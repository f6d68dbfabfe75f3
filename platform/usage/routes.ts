import { Hono } from "hono";
import { usageExportQuerySchema, usageFilteredQuerySchema } from "@contract/usage";
import type { PlatformEnv } from "../context";
import { inOrganization, signedIn } from "../http/middleware";
import { valid } from "../http/validate";
import { usageCsv } from "./export";
import { tokenSpend, usageReport } from "./service";

/**
 * The active organization's usage, for every member (like billing and the token list, not role-gated):
 * GET /usage?days=&model=&token=&member= (the report), /usage/export (the same view as CSV, streamed) and
 * /usage/token-spend (each token's spend this month). A token or member of another organization is 404.
 */
export const usageRoutes = new Hono<PlatformEnv>()
  .use(signedIn, inOrganization)
  .get("/", valid("query", usageFilteredQuerySchema), async (c) => {
    const { days, ...filters } = c.req.valid("query");
    return c.json(await usageReport(c.var.deps, c.var.membership.orgId, days, filters));
  })
  .get("/export", valid("query", usageExportQuerySchema), async (c) => usageCsv(c.var.deps, c.var.membership.orgId, c.req.valid("query")))
  .get("/token-spend", async (c) => c.json(await tokenSpend(c.var.deps, c.var.membership.orgId)));
