import { Hono } from "hono";
import { z } from "zod";
import type { PlatformEnv } from "../context";
import { adminOnly, inOrganization, signedIn } from "../http/middleware";
import { valid } from "../http/validate";
import { createToken, listTokens, RateLimited, revokeToken, TOKEN_SCOPES } from "./service";

const createTokenBody = z.object({
  scopes: z.array(z.string().max(100)).max(50).default([]),
  // The service bounds it to 10 years ahead of its clock; this only keeps absurd numbers out.
  expiresAt: z.number().int("expiresAt must be epoch milliseconds").positive().max(8.64e15, "expiresAt is too far ahead").nullable(),
});

export const tokenRoutes = new Hono<PlatformEnv>()
  .use(signedIn, inOrganization)
  .get("/", async (c) => c.json(await listTokens(c.var.deps, c.var.membership.orgId)))
  .get("/scopes", (c) => c.json([...TOKEN_SCOPES]))
  .post("/", adminOnly, valid("json", createTokenBody), async (c) => {
    try {
      const token = await createToken(c.var.deps, c.var.membership.orgId, c.var.caller.userId, c.req.valid("json"));
      return c.json(token, 201);
    } catch (error) {
      if (!(error instanceof RateLimited)) throw error;
      c.header("Retry-After", String(error.retryAfterSeconds));
      return c.json({ error: error.message }, 429);
    }
  })
  .delete("/:publicId", adminOnly, async (c) => {
    return c.json(await revokeToken(c.var.deps, c.var.membership.orgId, c.req.param("publicId")));
  });
