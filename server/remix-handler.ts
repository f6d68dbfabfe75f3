import { sendRemixResponse } from "@remix-run/express/dist/server.js";
import type { GetLoadContextFunction } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import { createRequestHandler } from "@remix-run/node";
import type { RequestHandler } from "express";
import { wholeDocumentMarkup } from "../app/whole-document.server";
import { remixRequest } from "./remix-request";

/**
 * Remix's Express adapter, except for two costs it pays on every page (decision 0087, eleventh and
 * twelfth passes). A GET's request is made without a full WHATWG `Request` (remix-request.ts). A
 * document rendered whole is written in one piece, encoded once: the adapter reads every answer's body
 * as a web stream, which for a string body means making a full `Response`, a stream and a read per
 * chunk. Every other answer (streamed pages, redirects, data, resource routes, HEAD) goes through the
 * adapter's own `sendRemixResponse`.
 */
export function remixHandler({
  build,
  mode,
  getLoadContext,
}: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: string;
  getLoadContext: GetLoadContextFunction;
}): RequestHandler {
  const handle = createRequestHandler(build, mode);
  return async (req, res, next) => {
    try {
      const response = await handle(remixRequest(req, res), await getLoadContext(req, res));
      // A POST to a page without an action: 405 must say what the page takes (RFC 9110 §15.5.6).
      if (response.status === 405 && !response.headers.has("Allow")) response.headers.set("Allow", "GET, HEAD");
      const markup = wholeDocumentMarkup(response);
      if (markup === undefined) return await sendRemixResponse(res, response);
      // No status text: a document has none, and reading it would make the full Response after all.
      res.status(response.status);
      for (const [name, value] of response.headers) res.append(name, value);
      res.end(Buffer.from(markup));
    } catch (error) {
      next(error);
    }
  };
}
