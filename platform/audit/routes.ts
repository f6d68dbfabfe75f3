import { Hono } from "hono";
import type { Context } from "hono";
import { AUDIT_CSV_COLUMNS, auditQuerySchema, systemAuditQuerySchema } from "@contract/audit";
import type { PlatformEnv } from "../context";
import { adminOnly, inOrganization, signedIn, systemOrganization } from "../http/middleware";
import { valid } from "../http/validate";
import { csvResponse } from "../usage/csv";
import { exportAudit, listAudit } from "./service";

/** The log's CSV, the exports' one way (byte order mark, header, streamed pages), named for today. */
function csv(c: Context<PlatformEnv>, pages: AsyncGenerator<string[]>, name: string): Response {
  const day = new Date(c.var.deps.now()).toISOString().slice(0, 10);
  return csvResponse(`${name}-${day}.csv`, AUDIT_CSV_COLUMNS, pages);
}

/**
 * The organization's audit log, for its admins only (members: 403). Read-only by construction: the
 * router has no other method, so PUT, PATCH and DELETE on it are not found, and the table refuses them too.
 */
export const auditRoutes = new Hono<PlatformEnv>()
  .use(signedIn, inOrganization, adminOnly)
  .get("/", valid("query", auditQuerySchema), async (c) => c.json(await listAudit(c.var.deps, c.var.membership.orgId, c.req.valid("query"))))
  .get("/export", valid("query", auditQuerySchema.omit({ limit: true })), (c) =>
    csv(c, exportAudit(c.var.deps, c.var.membership.orgId, c.req.valid("query")), "audit-log"),
  );

/** Every organization's log (or one's, `?organization=`), for the system organization's admins. */
export const systemAuditRoutes = new Hono<PlatformEnv>()
  .use(signedIn, inOrganization, systemOrganization, adminOnly)
  .get("/", valid("query", systemAuditQuerySchema), async (c) => c.json(await listAudit(c.var.deps, "all", c.req.valid("query"))))
  .get("/export", valid("query", systemAuditQuerySchema.omit({ limit: true })), (c) =>
    csv(c, exportAudit(c.var.deps, "all", c.req.valid("query")), "audit-log-all"),
  );
