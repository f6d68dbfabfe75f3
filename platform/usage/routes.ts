import { Hono } from "hono";
import type { PlatformEnv } from "../context";
import { PlatformError } from "../http/errors";
import { inOrganization, signedIn } from "../http/middleware";
import { parsePeriod, usageReport } from "./service";

/** GET /usage?days=7|30|90: the active organization's usage, for every member (like billing, not role-gated). */
export const usageRoutes = new Hono<PlatformEnv>().use(signedIn, inOrganization).get("/", async (c) => {
  const days = parsePeriod(c.req.query("days"));
  if (!days) throw new PlatformError(400, "days: must be 7, 30 or 90");
  return c.json(await usageReport(c.var.deps, c.var.membership.orgId, days));
});
