import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";

/** JSON and form bodies of the platform's calls (and the Stripe webhook): decision 0083. */
export const SMALL_BODY_LIMIT = 64 * 1024;
/** A chat request with its history; the spend-control rule bounds the characters of messages itself. */
export const CHAT_BODY_LIMIT = 8 * 1024 * 1024;

export function bodyTooLargeMessage(limit: number) {
  return `Request body too large: at most ${limit >= 1024 * 1024 ? `${limit / (1024 * 1024)} MB` : `${limit / 1024} KB`} here.`;
}

/** The 413 of a body over `limit`, in the error shape of the API it was sent to. */
export type BodyRefusal = (c: Context, limit: number) => Response;

/**
 * Every request body is read with a limit, so no handler can be made to buffer more than that: 8 MB for
 * a chat, 64 KB for anything else. Through the server, @hono/node-server then drains what the client
 * still sends for a bounded time (500 ms, 64 MB) and closes the connection, so the client reads the 413
 * instead of a reset.
 */
export function limitBodies(refuse: BodyRefusal) {
  const small = bodyLimit({ maxSize: SMALL_BODY_LIMIT, onError: (c) => refuse(c, SMALL_BODY_LIMIT) });
  const chat = bodyLimit({ maxSize: CHAT_BODY_LIMIT, onError: (c) => refuse(c, CHAT_BODY_LIMIT) });
  return createMiddleware(async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const isChat = c.req.path.endsWith("/chat/completions");
    // A declared length is checked from the header alone (what hono's bodyLimit does too, but only after
    // touching `body`, which makes @hono/node-server build a whole WHATWG Request: decision 0087).
    const length = c.req.header("content-length");
    if (length !== undefined && c.req.header("transfer-encoding") === undefined) {
      const limit = isChat ? CHAT_BODY_LIMIT : SMALL_BODY_LIMIT;
      if (parseInt(length, 10) > limit) return (isChat ? chat : small)(c, next);
      return next();
    }
    return isChat ? chat(c, next) : small(c, next);
  });
}

/** /api/v1's limits: its error body, and the OpenAI shape for its chat (DESIGN §3). /openai/v1 bounds its own, in its shape. */
export const limitBody = limitBodies((c, limit) =>
  limit === CHAT_BODY_LIMIT
    ? c.json({ error: { message: bodyTooLargeMessage(limit), type: "invalid_request_error" } }, 413)
    : c.json({ error: bodyTooLargeMessage(limit) }, 413),
);
