import { Hono } from "hono";
import { createTokenSchema, TOKEN_SCOPES, tokenParamSchema, tokenSettingsSchema } from "@contract/tokens";
import type { PlatformEnv } from "../context";
import { adminOnly, inOrganization, SECRET_ANSWER, signedIn } from "../http/middleware";
import { valid } from "../http/validate";
import { rollTokenSchema } from "@contract/token-rotation";
import { createToken, listTokens, revokeToken, rollToken, updateTokenSettings } from "./service";

export const tokenRoutes = new Hono<PlatformEnv>()
  .use(signedIn, inOrganization)
  .get("/", async (c) => c.json(await listTokens(c.var.deps, c.var.membership.orgId)))
  .get("/scopes", (c) => c.json([...TOKEN_SCOPES]))
  .post("/", adminOnly, valid("json", createTokenSchema), async (c) =>
    c.json(await createToken(c.var.deps, c.var.membership.orgId, c.var.caller.userId, c.req.valid("json")), 201, SECRET_ANSWER),
  )
  .put("/:publicId", adminOnly, valid("param", tokenParamSchema, { notFound: "Token not found" }), valid("json", tokenSettingsSchema), async (c) =>
    c.json(await updateTokenSettings(c.var.deps, c.var.membership.orgId, c.var.caller.userId, c.req.valid("param").publicId, c.req.valid("json"))),
  )
  .post("/:publicId/roll", adminOnly, valid("param", tokenParamSchema, { notFound: "Token not found" }), valid("json", rollTokenSchema), async (c) =>
    c.json(
      await rollToken(
        c.var.deps,
        c.var.membership.orgId,
        c.var.caller.userId,
        c.req.valid("param").publicId,
        c.req.valid("json").grace,
        c.req.valid("json").version,
      ),
      200,
      SECRET_ANSWER,
    ),
  )
  .delete("/:publicId", adminOnly, valid("param", tokenParamSchema, { notFound: "Token not found" }), async (c) =>
    c.json(await revokeToken(c.var.deps, c.var.membership.orgId, c.var.caller.userId, c.req.valid("param").publicId)),
  );
