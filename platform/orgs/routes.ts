import { Hono } from "hono";
import { z } from "zod";
import type { PlatformEnv } from "../context";
import { setActiveOrganization } from "../auth/service";
import { adminOnly, inOrganization, signedIn } from "../http/middleware";
import { valid } from "../http/validate";
import { createInvite, createOrganization } from "./service";

export const organizationName = z.string().trim().min(1, "Organization name is required").max(100, "Organization name must be at most 100 characters");

export const orgRoutes = new Hono<PlatformEnv>()
  .get("/config", (c) => c.json({ orgSignupEnabled: c.var.deps.config.orgSignupEnabled }))
  .post("/", signedIn, valid("json", z.object({ name: organizationName })), async (c) => {
    const org = await createOrganization(c.var.deps, c.var.caller.userId, c.req.valid("json").name);
    await setActiveOrganization(c.var.deps, c.var.caller.sessionHash, org.id);
    return c.json(org, 201);
  })
  .post("/invites", signedIn, inOrganization, adminOnly, valid("json", z.object({ status: z.enum(["single-use", "multi-use"]) })), async (c) => {
    const invite = await createInvite(c.var.deps, c.var.membership.orgId, c.var.caller.userId, c.req.valid("json").status);
    return c.json(invite, 201);
  });
