import { Hono } from "hono";
import type { PlatformEnv } from "../context";
import { adminOnly, inOrganization, signedIn, systemOrganization } from "../http/middleware";
import { valid } from "../http/validate";
import { deleteModel, listModels, modelInput, modelStatuses, saveModel, toPublicModel } from "./service";

/** GET /models and /models/status for members (SPEC §7); writes for the system organization's admins. */
export const modelRoutes = new Hono<PlatformEnv>()
  .get("/", signedIn, inOrganization, async (c) => c.json({ data: (await listModels(c.var.deps)).map(toPublicModel) }))
  .get("/status", signedIn, inOrganization, async (c) => c.json(await modelStatuses(c.var.deps)))
  .put("/:name{.+}", signedIn, inOrganization, systemOrganization, adminOnly, valid("json", modelInput.omit({ name: true })), async (c) => {
    const name = c.req.param("name");
    const parsed = modelInput.safeParse({ ...c.req.valid("json"), name });
    if (!parsed.success) return c.json({ error: `name: ${parsed.error.issues[0].message}` }, 400);
    await saveModel(c.var.deps, parsed.data);
    return c.json({ ok: true });
  })
  .delete("/:name{.+}", signedIn, inOrganization, systemOrganization, adminOnly, async (c) => {
    await deleteModel(c.var.deps, c.req.param("name"));
    return c.json({ ok: true });
  });
