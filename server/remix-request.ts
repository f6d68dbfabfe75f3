import { createRemixHeaders, createRemixRequest } from "@remix-run/express/dist/server.js";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";

const full = Symbol("full request");

/**
 * A GET or HEAD as Remix's handler gets it. Remix and the app read its url, method, headers and signal,
 * which are plain fields here; anything else (`clone()`, `cache`, …) is answered by the full WHATWG
 * `Request`, made on first use. Making that `Request` up front was a twentieth of a signed-in page's CPU
 * time: its constructor checks every field again and follows the signal with one of its own (decision
 * 0087, twelfth pass). It is an `instanceof Request` but not one in undici's sense: pass its url and
 * fields to `new Request`, not the object itself (Remix does the former).
 */
class BodilessRequest {
  #full: Request | undefined;
  // Getters, not fields: a field would be set through Request.prototype's own getters, which refuse.
  readonly #url: string;
  readonly #method: string;
  readonly #headers: Headers;
  readonly #signal: AbortSignal;
  constructor(url: string, method: string, headers: Headers, signal: AbortSignal) {
    this.#url = url;
    this.#method = method;
    this.#headers = headers;
    this.#signal = signal;
  }
  get url() {
    return this.#url;
  }
  get method() {
    return this.#method;
  }
  get headers() {
    return this.#headers;
  }
  get signal() {
    return this.#signal;
  }
  get body() {
    return null;
  }
  get bodyUsed() {
    return false;
  }
  [full](): Request {
    return (this.#full ??= new Request(this.#url, { method: this.#method, headers: this.#headers, signal: this.#signal }));
  }
}

const WebRequest = globalThis.Request;
const own = new Set(["constructor", "url", "method", "headers", "signal", "body", "bodyUsed"]);
for (const name of Object.getOwnPropertyNames(WebRequest.prototype)) {
  if (own.has(name)) continue;
  const member = Object.getOwnPropertyDescriptor(WebRequest.prototype, name)!;
  Object.defineProperty(
    BodilessRequest.prototype,
    name,
    member.get
      ? {
          get: function (this: BodilessRequest) {
            return Reflect.get(this[full](), name);
          },
        }
      : {
          value: function (this: BodilessRequest, ...args: unknown[]) {
            return (member.value as (...a: unknown[]) => unknown).apply(this[full](), args);
          },
        },
  );
}

/**
 * The request for Remix, as `@remix-run/express`'s `createRemixRequest` makes it: the same url (the
 * host name as Express resolves it under "trust proxy", the port from X-Forwarded-Host or Host), the
 * same headers, and a signal that aborts when the connection closes before the answer was sent.
 * Requests with a body are the adapter's own.
 */
export function remixRequest(req: ExpressRequest, res: ExpressResponse): Request {
  if (req.method !== "GET" && req.method !== "HEAD") return createRemixRequest(req, res);
  // Hono's server puts its own subclass in place of the global Request once it starts, after this
  // module is loaded: an `instanceof Request` holds for whichever is the global now.
  if (Object.getPrototypeOf(BodilessRequest.prototype) !== globalThis.Request.prototype) {
    Object.setPrototypeOf(BodilessRequest.prototype, globalThis.Request.prototype);
  }
  let controller: AbortController | null = new AbortController();
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  return new BodilessRequest(remixUrl(req), req.method, createRemixHeaders(req.headers), controller.signal) as unknown as Request;
}

function remixUrl(req: ExpressRequest): string {
  const port = portOf(req.get("X-Forwarded-Host")) ?? portOf(req.get("host"));
  return new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`).href;
}

/** The adapter's reading of a port: the number after the first colon, if it is one. */
function portOf(host: string | undefined): number | undefined {
  const port = Number.parseInt(host?.split(":")[1] ?? "", 10);
  return Number.isSafeInteger(port) ? port : undefined;
}
