import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { auditRoutes, systemAuditRoutes } from "./audit/routes";
import { auditScope } from "./audit/record";
import { authRoutes } from "./auth/routes";
import { forgetSessionsOnWrite } from "./auth/shared-sessions";
import { billingRoutes, billingWebhookRoutes } from "./billing/routes";
import type { Deps, PlatformEnv } from "./context";
import type { ErrorBody } from "@contract/errors";
import { redactUrl } from "@contract/redact";
import { limitBody } from "./http/body-limit";
import { databaseAway, databaseUnavailable, UNAVAILABLE_MESSAGE, UNAVAILABLE_RETRY_AFTER } from "./db/unavailable";
import { PlatformError } from "./http/errors";
import { NUL_REFUSED_MESSAGE, nulRefusedByDatabase } from "./db/nul";
import { sameOrigin } from "./http/middleware";
import { orgRoutes } from "./orgs/routes";
import { chatRoutes } from "./chat/routes";
import { modelRoutes } from "./models/routes";
import { openaiRoutes } from "./openai/routes";
import { systemRoutes } from "./system/routes";
import { tokenRoutes } from "./tokens/routes";
import { usageRoutes } from "./usage/routes";

/** The embedded platform: the /api/v1 contract of SPEC §7 over its own database. */
export function createPlatform(deps: Deps) {
  const root = new Hono<PlatformEnv>();
  root.use("/api/v1/*", limitBody);
  const app = root.basePath("/api/v1");
  app.use(async (c, next) => {
    c.set("deps", deps);
    await next();
  });
  app.use(auditScope);
  app.use(forgetSessionsOnWrite);
  // Only the signature-checked Stripe webhook is answered before the Origin rule (DESIGN §3).
  app.route("/billing", billingWebhookRoutes);
  app.use(sameOrigin);
  app.route("/auth", authRoutes);
  app.route("/organizations", orgRoutes);
  app.route("/tokens", tokenRoutes);
  app.route("/billing", billingRoutes);
  app.route("/models", modelRoutes);
  app.route("/chat", chatRoutes);
  app.route("/system", systemRoutes);
  app.route("/usage", usageRoutes);
  app.route("/audit", auditRoutes);
  app.route("/system/audit", systemAuditRoutes);
  // The public OpenAI-compatible API: `basePath` shares the router, so `app.fetch` answers /openai/v1 too,
  // without /api/v1's middleware (bearer tokens, no cookies, no origin check).
  root.route("/openai/v1", openaiRoutes(deps));

  app.notFound((c) => c.json(new PlatformError(404, "Not found").body, 404));
  // The one place an error body is written (DESIGN §3).
  app.onError((err, c) => {
    // The path as a log may hold it: a join's invite code is cut short (README, LOG_REQUESTS).
    const path = redactUrl(c.req.path);
    const error =
      err instanceof PlatformError
        ? err
        : err instanceof HTTPException
          ? new PlatformError(err.status, err.message || "Bad request")
          : nulRefusedByDatabase(err)
            ? new PlatformError(400, NUL_REFUSED_MESSAGE)
            : databaseUnavailable(err)
              ? (databaseAway(c.req.method, path, c.req.header("x-request-id"), err),
                new PlatformError(503, UNAVAILABLE_MESSAGE, { headers: { "retry-after": UNAVAILABLE_RETRY_AFTER } }))
              : (console.error(`Unhandled error in ${c.req.method} ${path} (request ${c.req.header("x-request-id") ?? "-"}):`, err),
                new PlatformError(500, "Internal server error"));
    for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
    return c.json(error.body satisfies ErrorBody, error.status);
  });
  return app;
}

export type Platform = ReturnType<typeof createPlatform>;
