import { Hono } from "hono";
import { USAGE_PERIOD_REFUSAL, usageQuerySchema } from "@contract/usage";
import type { PlatformEnv } from "../context";
import { inOrganization, signedIn } from "../http/middleware";
import { valid } from "../http/validate";
import { usageReport } from "./service";

/** GET /usage?days=7|30|90: the active organization's usage, for every member (like billing, not role-gated). */
export const usageRoutes = new Hono<PlatformEnv>()
  .use(signedIn, inOrganization)
  .get("/", valid("query", usageQuerySchema, { message: USAGE_PERIOD_REFUSAL }), async (c) =>
    c.json(await usageReport(c.var.deps, c.var.membership.orgId, c.req.valid("query").days)),
  );
