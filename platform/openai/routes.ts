import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import type { OpenAiModelList } from "@contract/models";
import type { Deps, PlatformEnv } from "../context";
import { ChatError, chatCompletion, chatErrorResponse, NOT_JSON_MESSAGE, parseChatRequest } from "../chat/service";
import { RECEIPT_HEADER } from "@contract/chat";
import { PLAIN_REQUEST_ID } from "@contract/request-id";
import { bodyTooLargeMessage, limitBodies } from "../http/body-limit";
import { readNodeJson } from "../http/node-request";
import type { ModelRow } from "../db/schema";
import { findModel, listModels } from "../models/service";
import type { ApiTokenAuth } from "../tokens/service";
import type { TokenRateLimit } from "../tokens/service";
import { authenticateApiToken, tokenRateLimit } from "../tokens/service";
import { databaseAway, databaseUnavailable, UNAVAILABLE_MESSAGE, UNAVAILABLE_RETRY_AFTER } from "../db/unavailable";
import { NUL_REFUSED_MESSAGE, nulRefusedByDatabase } from "../db/nul";

function authError(status: 401 | 403, message: string): ChatError {
  return status === 401
    ? new ChatError(401, message, "authentication_error", { code: "invalid_api_key", retryable: false })
    : new ChatError(403, message, "permission_error", { retryable: false });
}

function modelObject(m: ModelRow): OpenAiModelList["data"][number] {
  return { id: m.name, object: "model", created: Math.floor(m.created_at / 1000), owned_by: m.provider };
}

/**
 * What every answer carries, written into it in place: an id, as OpenAI's answers have (a completion's
 * receipt; anything else the request's own, which the access log and error lines name (decision 0138),
 * or a new one when it came without a plain one), and CORS for browser clients on any origin, who may read the
 * headers OpenAI's SDKs act on (a browser hides the others: `x-should-retry` unread, a final refusal was retried). Hono's `cors` sets
 * them before the handler runs, which makes Hono rebuild each answer as a full Response with a web
 * stream when the handler returns it, on the path every metered call takes (decision 0098).
 */
function decorate(response: Response, requestId: string | undefined): Response {
  const headers = response.headers;
  if (!headers.has("x-request-id")) {
    const own = requestId !== undefined && PLAIN_REQUEST_ID.test(requestId) ? requestId : `req_${randomBytes(12).toString("hex")}`;
    headers.set("x-request-id", headers.get(RECEIPT_HEADER) ?? own);
  }
  headers.set("access-control-allow-origin", "*");
  headers.set(
    "access-control-expose-headers",
    `x-request-id, ${RECEIPT_HEADER}, retry-after, x-should-retry, x-ratelimit-limit-requests, x-ratelimit-remaining-requests, x-ratelimit-reset-requests`,
  );
  return response;
}

/**
 * Bodies are bounded here, after `decorate` is hooked, so that a browser can read the 413 (CORS) and an
 * SDK gets the OpenAI shape and does not send the same body again. The platform's own limit, answered
 * before any of this, gave a 413 a browser could not read.
 */
const limitBody = limitBodies((_c, limit) =>
  chatErrorResponse(new ChatError(413, bodyTooLargeMessage(limit), "invalid_request_error", { code: "request_too_large", retryable: false })),
);

/** A browser's preflight: any origin may call with its bearer token (there is no cookie to protect). */
function preflight(requested: string | undefined): Response {
  return new Response(null, {
    status: 204,
    headers: {
      "access-control-allow-origin": "*",
      "access-control-allow-methods": "GET, POST",
      "access-control-allow-headers": requested ?? "authorization, content-type",
      "access-control-max-age": "86400",
    },
  });
}

/**
 * A token's optional requests-per-minute limit (decision 0083): a 429 in the OpenAI shape, with
 * Retry-After; or how the call stands against it, for `withRateLimit`.
 */
async function rateLimited(deps: Deps, auth: Extract<ApiTokenAuth, { ok: true }>): Promise<{ refused: Response } | { limit: TokenRateLimit | null }> {
  const limit = await tokenRateLimit(deps, auth.tokenId, auth.rateLimitRpm);
  if (!limit || limit.ok) return { limit };
  const wait = limit.resetSeconds;
  const message = `Rate limit reached: this API token allows ${limit.limit} requests per minute. Try again in ${wait} s.`;
  const refused = chatErrorResponse(new ChatError(429, message, "rate_limit_exceeded", { retryAfter: String(wait), code: "rate_limit_exceeded" }));
  return { refused: withRateLimit(refused, limit) };
}

/** OpenAI's `x-ratelimit-*-requests` headers, for a token with a limit: clients pace themselves by them. */
function withRateLimit(response: Response, limit: TokenRateLimit | null): Response {
  if (!limit) return response;
  response.headers.set("x-ratelimit-limit-requests", String(limit.limit));
  response.headers.set("x-ratelimit-remaining-requests", String(limit.remaining));
  response.headers.set("x-ratelimit-reset-requests", `${limit.resetSeconds}s`);
  return response;
}

/**
 * The public OpenAI-compatible API under /openai/v1 (DESIGN §5): bearer API tokens only. No cookie is
 * read here, so the browser origin check of /api/v1 does not apply: there is no ambient credential to
 * forge, and browser-based clients on any origin may call it (CORS, decision 0098).
 */
export function openaiRoutes(deps: Deps) {
  /** The models a token may call, as its allow-list narrows them (decision 0084). */
  const visible = (models: ModelRow[], allowed: string[] | null) => (allowed ? models.filter((m) => allowed.includes(m.name)) : models);
  return new Hono<PlatformEnv>()
    .use(async (c, next) => {
      if (c.req.method === "OPTIONS") return preflight(c.req.header("access-control-request-headers"));
      c.set("deps", deps);
      await next();
      decorate(c.res, c.req.header("x-request-id"));
    })
    .use(limitBody)
    .get("/models", async (c) => {
      const auth = await authenticateApiToken(deps, c.req.header("authorization"), "models:read");
      if (!auth.ok) return chatErrorResponse(authError(auth.status, auth.error));
      const limited = await rateLimited(deps, auth);
      if ("refused" in limited) return limited.refused;
      const models = visible(await listModels(deps), auth.allowedModels);
      return withRateLimit(c.json<OpenAiModelList>({ object: "list", data: models.map(modelObject) }), limited.limit);
    })
    .get("/models/:name{.+}", async (c) => {
      const auth = await authenticateApiToken(deps, c.req.header("authorization"), "models:read");
      if (!auth.ok) return chatErrorResponse(authError(auth.status, auth.error));
      const limited = await rateLimited(deps, auth);
      if ("refused" in limited) return limited.refused;
      const name = c.req.param("name");
      const model = await findModel(deps, name);
      if (!model || visible([model], auth.allowedModels).length === 0)
        throw new ChatError(404, `The model '${name}' does not exist`, "invalid_request_error", { param: "model", code: "model_not_found" });
      return withRateLimit(c.json(modelObject(model)), limited.limit);
    })
    .post("/chat/completions", async (c) => {
      const auth = await authenticateApiToken(deps, c.req.header("authorization"), "chat");
      if (!auth.ok) return chatErrorResponse(authError(auth.status, auth.error));
      const limited = await rateLimited(deps, auth);
      if ("refused" in limited) return limited.refused;
      // A body of another type is refused, not guessed at (decision 0083): curl's -d sends a form's type.
      if (!/^application\/json\s*(;|$)/i.test(c.req.header("content-type") ?? ""))
        throw new ChatError(400, NOT_JSON_MESSAGE, "invalid_request_error", { code: "invalid_json" });
      const read = (await readNodeJson(c.env)) ?? { body: await c.req.json().catch(() => null), signal: c.req.raw.signal };
      const body = parseChatRequest(read.body);
      const answer = await chatCompletion(
        deps,
        {
          orgId: auth.orgId,
          userId: null,
          tokenId: auth.tokenId,
          tokenSecretHash: auth.secretHash,
          tokenBudgeted: auth.budgeted,
          allowedModels: auth.allowedModels,
        },
        body,
        read.signal,
      );
      return withRateLimit(answer, limited.limit);
    })
    .all("*", (c) =>
      chatErrorResponse(
        new ChatError(404, `Unknown request URL: ${c.req.method} ${new URL(c.req.url).pathname}`, "invalid_request_error", { code: "unknown_url" }),
      ),
    )
    .onError((error, c) => {
      const requestId = c.req.header("x-request-id");
      if (error instanceof ChatError) return decorate(chatErrorResponse(error), error.receiptId ?? requestId);
      if (databaseUnavailable(error)) {
        databaseAway(c.req.method, c.req.path, c.req.header("x-request-id"), error);
        return decorate(
          chatErrorResponse(new ChatError(503, UNAVAILABLE_MESSAGE, "server_error", { code: "service_unavailable", retryAfter: UNAVAILABLE_RETRY_AFTER })),
          requestId,
        );
      }
      if (nulRefusedByDatabase(error)) return decorate(chatErrorResponse(new ChatError(400, NUL_REFUSED_MESSAGE, "invalid_request_error")), requestId);
      console.error(`Unhandled error in ${c.req.method} ${c.req.path} (request ${c.req.header("x-request-id") ?? "-"}):`, error);
      return decorate(chatErrorResponse(new ChatError(500, "Internal server error", "server_error")), requestId);
    });
}
