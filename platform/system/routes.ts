import { Hono } from "hono";
import { z } from "zod";
import type { PlatformEnv } from "../context";
import { PlatformError } from "../http/errors";
import { adminOnly, inOrganization, signedIn, systemOrganization } from "../http/middleware";
import { valid } from "../http/validate";
import { organizationName } from "../orgs/routes";
import { getOrganization, listModelConfigs, listOrganizations, updateOrganization } from "./service";

export const PAYMENT_MODES = ["manual", "auto", "invoice"] as const;

const organizationChange = z
  .object({ name: organizationName.optional(), paymentMode: z.enum(PAYMENT_MODES).optional() })
  .strict()
  .refine((v) => v.name !== undefined || v.paymentMode !== undefined, "Send a name or a paymentMode");

/** An organization id from the path; anything that isn't one is simply not found. */
function organizationId(raw: string): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id <= 0) throw new PlatformError(404, "Organization not found");
  return id;
}

/**
 * The system pages' calls (DESIGN §4): members of organization 1 read, its admins write. Model writes
 * stay on PUT/DELETE /models/{name}; this adds the editable view of the registry.
 */
export const systemRoutes = new Hono<PlatformEnv>()
  .use(signedIn, inOrganization, systemOrganization)
  .get("/models", async (c) => c.json({ data: await listModelConfigs(c.var.deps) }))
  .get("/organizations", async (c) => c.json({ data: await listOrganizations(c.var.deps) }))
  .get("/organizations/:id", async (c) => c.json(await getOrganization(c.var.deps, organizationId(c.req.param("id")))))
  .put("/organizations/:id", adminOnly, valid("json", organizationChange), async (c) => {
    const id = organizationId(c.req.param("id"));
    return c.json(await updateOrganization(c.var.deps, id, c.req.valid("json")));
  });
