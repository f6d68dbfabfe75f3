import { Hono } from "hono";
import type { Ok } from "@contract/session";
import { MODEL_FORM_FIELD, modelBodySchema, modelNameParamSchema } from "@contract/models";
import type { PlatformEnv } from "../context";
import { adminOnly, inOrganization, signedIn, systemOrganization } from "../http/middleware";
import { valid } from "../http/validate";
import { historyQuerySchema } from "@contract/models";
import { modelHistory, organizationMetrics } from "./reliability";
import { deleteModel, listModels, modelStatuses, saveModel, toPublicModel } from "./service";

/** A name that could never be saved is refused by field, like the rest of the editor's form. */
const nameParam = valid("param", modelNameParamSchema, { fields: true });

/** GET /models and /models/status for members (SPEC §7); writes for the system organization's admins. */
export const modelRoutes = new Hono<PlatformEnv>()
  .use(signedIn, inOrganization)
  .get("/", async (c) => c.json({ data: (await listModels(c.var.deps)).map(toPublicModel) }))
  .get("/status", async (c) => c.json(await modelStatuses(c.var.deps)))
  .get("/metrics", async (c) => c.json({ data: await organizationMetrics(c.var.deps, c.var.membership.orgId) }))
  .get("/:name{.+}/history", valid("query", historyQuerySchema), async (c) =>
    c.json(await modelHistory(c.var.deps, c.var.membership.orgId, c.req.param("name"), c.req.valid("query").days)),
  )
  .put("/:name{.+}", systemOrganization, adminOnly, valid("json", modelBodySchema, { rename: MODEL_FORM_FIELD }), nameParam, async (c) => {
    await saveModel(c.var.deps, { ...c.req.valid("json"), name: c.req.valid("param").name }, c.var.caller.userId);
    return c.json<Ok>({ ok: true });
  })
  .delete("/:name{.+}", systemOrganization, adminOnly, async (c) => {
    await deleteModel(c.var.deps, c.req.param("name"), c.var.caller.userId);
    return c.json<Ok>({ ok: true });
  });
