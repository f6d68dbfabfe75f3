import { Hono } from "hono";
import type { OpenAiModelList } from "@contract/models";
import type { Deps, PlatformEnv } from "../context";
import { ChatError, chatCompletion, chatErrorResponse, parseChatRequest } from "../chat/service";
import { readNodeJson } from "../http/node-request";
import { listModels } from "../models/service";
import type { ApiTokenAuth } from "../tokens/service";
import { authenticateApiToken, tokenRateLimitWait } from "../tokens/service";

function authError(status: 401 | 403, message: string): ChatError {
  return new ChatError(status, message, status === 401 ? "authentication_error" : "permission_error");
}

/** A token's optional requests-per-minute limit (decision 0083): 429 in the OpenAI shape, with Retry-After. */
async function rateLimited(deps: Deps, auth: Extract<ApiTokenAuth, { ok: true }>): Promise<Response | null> {
  const wait = await tokenRateLimitWait(deps, auth.tokenId, auth.rateLimitRpm);
  if (wait === null) return null;
  const message = `Rate limit reached: this API token allows ${auth.rateLimitRpm} requests per minute. Try again in ${wait} s.`;
  return chatErrorResponse(new ChatError(429, message, "rate_limit_exceeded", String(wait)));
}

/**
 * The public OpenAI-compatible API under /openai/v1 (DESIGN §5): bearer API tokens only. No cookie is
 * read here, so the browser origin check of /api/v1 does not apply: there is no ambient credential to forge.
 */
export function openaiRoutes(deps: Deps) {
  return new Hono<PlatformEnv>()
    .use(async (c, next) => {
      c.set("deps", deps);
      await next();
    })
    .get("/models", async (c) => {
      const auth = await authenticateApiToken(deps, c.req.header("authorization"), "models:read");
      if (!auth.ok) return chatErrorResponse(authError(auth.status, auth.error));
      const limited = await rateLimited(deps, auth);
      if (limited) return limited;
      const models = await listModels(deps);
      return c.json<OpenAiModelList>({
        object: "list",
        data: models.map((m) => ({ id: m.name, object: "model", created: Math.floor(m.created_at / 1000), owned_by: m.provider })),
      });
    })
    .post("/chat/completions", async (c) => {
      const auth = await authenticateApiToken(deps, c.req.header("authorization"), "chat");
      if (!auth.ok) return chatErrorResponse(authError(auth.status, auth.error));
      const limited = await rateLimited(deps, auth);
      if (limited) return limited;
      const read = (await readNodeJson(c.env)) ?? { body: await c.req.json().catch(() => null), signal: c.req.raw.signal };
      const body = parseChatRequest(read.body);
      return chatCompletion(
        deps,
        { orgId: auth.orgId, userId: null, tokenId: auth.tokenId, tokenBudgeted: auth.budgeted, allowedModels: auth.allowedModels },
        body,
        read.signal,
      );
    })
    .all("*", () => chatErrorResponse(new ChatError(404, "Not found", "invalid_request_error")))
    .onError((error) => {
      if (error instanceof ChatError) return chatErrorResponse(error);
      console.error(error);
      return chatErrorResponse(new ChatError(500, "Internal server error", "server_error"));
    });
}
