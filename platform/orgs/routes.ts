import { Hono } from "hono";
import { z } from "zod";
import type { PlatformEnv } from "../context";
import { setActiveOrganization } from "../auth/service";
import { adminOnly, inOrganization, signedIn } from "../http/middleware";
import { valid } from "../http/validate";
import { PlatformError } from "../http/errors";
import { resetPrimaryToken } from "../tokens/service";
import { changeMemberRole, createInvite, createOrganization, listMembers, removeMember } from "./service";

export const organizationName = z.string().trim().min(1, "Organization name is required").max(100, "Organization name must be at most 100 characters");

/** A member id from the path; anything that isn't one is simply not found. */
function memberId(raw: string): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id <= 0) throw new PlatformError(404, "Member not found");
  return id;
}

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
  })
  .get("/members", signedIn, inOrganization, async (c) => c.json(await listMembers(c.var.deps, c.var.membership.orgId)))
  .put("/members/:id", signedIn, inOrganization, adminOnly, valid("json", z.object({ role: z.enum(["admin", "member"]) })), async (c) => {
    const { orgId } = c.var.membership;
    return c.json(await changeMemberRole(c.var.deps, orgId, c.var.caller.userId, memberId(c.req.param("id")), c.req.valid("json").role));
  })
  .delete("/members/:id", signedIn, inOrganization, adminOnly, async (c) => {
    await removeMember(c.var.deps, c.var.membership.orgId, c.var.caller.userId, memberId(c.req.param("id")));
    return c.json({ ok: true });
  })
  .post("/reset-token", signedIn, inOrganization, adminOnly, async (c) => c.json(await resetPrimaryToken(c.var.deps, c.var.membership.orgId)));
