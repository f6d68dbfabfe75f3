import { Hono } from "hono";
import { grantCreditSchema, idParamSchema, organizationChangeSchema, organizationQuerySchema } from "@contract/system";
import { grantCredit, reverseCredit } from "../billing/credits";
import type { PlatformEnv } from "../context";
import { adminOnly, inOrganization, signedIn, systemOrganization } from "../http/middleware";
import { valid } from "../http/validate";
import { systemMetrics } from "../models/reliability";
import { getOrganization, listModelConfigs, listOrganizations, updateOrganization } from "./service";

/** An organization id from the path; anything that isn't one is simply not found. */
const organizationParam = valid("param", idParamSchema, { notFound: "Organization not found" });

/**
 * The system pages' calls (DESIGN §4): members of organization 1 read, its admins write. Model writes
 * stay on PUT/DELETE /models/{name}; this adds the editable view of the registry.
 */
export const systemRoutes = new Hono<PlatformEnv>()
  .use(signedIn, inOrganization, systemOrganization)
  .get("/models", async (c) => c.json({ data: await listModelConfigs(c.var.deps) }))
  .get("/models/metrics", async (c) => c.json(await systemMetrics(c.var.deps)))
  .get("/organizations", valid("query", organizationQuerySchema), async (c) => c.json(await listOrganizations(c.var.deps, c.req.valid("query"))))
  .get("/organizations/:id", organizationParam, async (c) => c.json(await getOrganization(c.var.deps, c.req.valid("param").id)))
  .put("/organizations/:id", adminOnly, organizationParam, valid("json", organizationChangeSchema), async (c) =>
    c.json(await updateOrganization(c.var.deps, c.req.valid("param").id, c.req.valid("json"), c.var.caller.userId)),
  )
  .post("/organizations/:id/credits", adminOnly, organizationParam, valid("json", grantCreditSchema), async (c) => {
    const { id } = c.req.valid("param");
    const { amount, reason } = c.req.valid("json");
    await grantCredit(c.var.deps, id, amount, reason, c.var.caller.userId);
    return c.json(await getOrganization(c.var.deps, id));
  })
  // A reversal names what it takes back as a grant names what it gives: the same body and limits.
  .post("/organizations/:id/credit-reversals", adminOnly, organizationParam, valid("json", grantCreditSchema), async (c) => {
    const { id } = c.req.valid("param");
    const { amount, reason } = c.req.valid("json");
    await reverseCredit(c.var.deps, id, amount, reason, c.var.caller.userId);
    return c.json(await getOrganization(c.var.deps, id));
  });
