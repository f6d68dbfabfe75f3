import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import type { RequestHandler, Response } from "express";
// The platform's limits and words: a console form is bounded as a platform call, its chat as a chat.
import { bodyTooLargeMessage, CHAT_BODY_LIMIT, SMALL_BODY_LIMIT } from "../platform/http/body-limit";

/** How long a refused body is still read (and dropped) after the answer, before the connection closes. */
const LINGER_MS = 500;

/**
 * Answers 413 and closes the connection the way servers must when a client is still sending: the
 * answer and a FIN first, then a moment of reading and dropping, then the close. Closing at once,
 * with the client's bytes unread, makes the kernel reset the connection and the client may lose
 * the answer before reading it.
 */
function refuse(req: IncomingMessage, res: Response, limit: number) {
  lingerOnClose(req.socket);
  res.status(413).set("Connection", "close").type("text/plain").send(bodyTooLargeMessage(limit));
  req.resume();
}

const lingering = Symbol("lingering");

/**
 * Node closes a connection whose request body was not read (after the 413s here and the platform's)
 * with `destroySoon`: it ends, then destroys as soon as the answer is written, with the client's
 * bytes unread. This makes it end, keep reading a moment, and only then destroy.
 */
function lingerOnClose(socket: Socket & { [lingering]?: true }) {
  if (socket[lingering]) return;
  socket[lingering] = true;
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}

type Push = IncomingMessage["push"];

/**
 * Bounds the bodies Express hands to Remix, while reading: a declared `Content-Length` over the
 * limit is refused at once; a chunked body is counted as the parser delivers it and held back
 * (at most `limit` bytes) until it ends, so the handler only ever sees a body within the limit and
 * a refusal never races a handler that already started reading.
 * Mount it before any asynchronous middleware: it must see the body's first chunk.
 */
export function bodyLimit(limitFor: (path: string) => number | null): RequestHandler {
  return (req, res, next) => {
    const limit = limitFor(req.path);
    const chunked = req.headers["transfer-encoding"] !== undefined;
    const length = Number(req.headers["content-length"] ?? 0);
    if (!chunked && !(length > 0)) return next();
    lingerOnClose(req.socket);
    if (limit === null) return next();
    if (!chunked) return length > limit ? refuse(req, res, limit) : next();

    const push: Push = req.push.bind(req);
    const held: Buffer[] = [];
    let size = req.readableLength;
    let refused = false;
    req.push = ((chunk: Buffer | null, encoding?: BufferEncoding) => {
      if (refused) return push(chunk, encoding); // to the drain, which drops it
      if (chunk === null) {
        for (const part of held) push(part);
        held.length = 0;
        push(null);
        next();
        return false;
      }
      size += chunk.length;
      if (size > limit) {
        refused = true;
        held.length = 0;
        refuse(req, res, limit);
        return true;
      }
      held.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, encoding));
      return true;
    }) as Push;
    if (req.complete) {
      req.push = push;
      next();
    }
  };
}

/** The console's limits: the platform's prefixes bound their own bodies (platform/http/body-limit.ts). */
export function consoleBodyLimit(path: string): number | null {
  if (path.startsWith("/api/v1/") || path.startsWith("/openai/v1/")) return null;
  return path === "/resources/chat" ? CHAT_BODY_LIMIT : SMALL_BODY_LIMIT;
}
