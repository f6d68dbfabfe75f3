import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRequestHandler } from "@remix-run/express";
import { redirect } from "@remix-run/node";
import express from "express";
import type { RequestHandler } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wholeDocumentResponse } from "../app/whole-document.server";
import { remixHandler } from "./remix-handler";
import { remixBuild } from "./testing/remix-build";

// The server writes a document rendered whole as its string (decision 0087, eleventh pass); every
// other answer goes through Remix's Express adapter. Either way a client must get what the adapter
// alone would send.
const build = remixBuild(
  (request: Request, status: number, headers: Headers) => {
    headers.set("Content-Type", "text/html");
    if (new URL(request.url).searchParams.get("page") === "streamed") {
      const parts = ["<!DOCTYPE html><p>first</p>", "<p>second</p>"];
      const body = new ReadableStream({ pull: (c) => (parts.length ? c.enqueue(new TextEncoder().encode(parts.shift())) : c.close()) });
      return new Response(body, { status, headers });
    }
    return wholeDocumentResponse("<!DOCTYPE html><p>Café: ünïcödé, whole</p>", { status, headers });
  },
  {
    root: {
      id: "root",
      path: "",
      module: {
        default: () => null,
        loader: ({ request }: { request: Request }) => {
          const page = new URL(request.url).searchParams.get("page");
          if (page === "old") throw redirect("/new", { headers: { "Set-Cookie": "moved=1" } });
          if (page === "missing") throw new Response("Not found", { status: 404 });
          return null;
        },
        ErrorBoundary: () => null,
        headers: () => {
          const headers = new Headers({ "Cache-Control": "no-store" });
          headers.append("Set-Cookie", "a=1; HttpOnly");
          headers.append("Set-Cookie", "b=2; HttpOnly");
          return headers;
        },
      },
    },
  },
  {
    root: {
      id: "root",
      path: "",
      module: "/root.js",
      hasLoader: true,
      hasAction: false,
      hasClientLoader: false,
      hasClientAction: false,
      hasErrorBoundary: true,
    },
  },
);

function serve(handler: RequestHandler) {
  const app = express();
  app.all("*", handler);
  return http.createServer(app).listen(0, "127.0.0.1");
}
const ours = serve(remixHandler({ build, mode: "production", getLoadContext: () => ({}) as never }));
const adapters = serve(createRequestHandler({ build, mode: "production", getLoadContext: () => ({}) as never }));
beforeAll(() =>
  Promise.all([ours, adapters].map((server) => new Promise((resolve) => (server.listening ? resolve(null) : server.once("listening", resolve))))),
);
afterAll(() => void [ours, adapters].forEach((server) => server.close()));

/** The answer a client reads; how the body is framed (a length, or chunks) is the server's business. */
async function answer(server: http.Server, path: string, method = "GET") {
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, { method, redirect: "manual" });
  const headers = [...response.headers].filter(([name]) => !["date", "content-length", "transfer-encoding"].includes(name));
  return { status: response.status, statusText: response.statusText, headers, body: await response.text() };
}

describe("the console's Remix handler", () => {
  it("sends a document rendered whole as the adapter does (status, every header, the body), in one piece", async () => {
    const sent = await answer(ours, "/?page=team");
    expect(sent).toEqual(await answer(adapters, "/?page=team"));
    expect(sent.status).toBe(200);
    expect(sent.statusText).toBe("OK");
    expect(sent.body).toBe("<!DOCTYPE html><p>Café: ünïcödé, whole</p>");
    expect(sent.headers).toContainEqual(["set-cookie", "a=1; HttpOnly"]);
    expect(sent.headers).toContainEqual(["set-cookie", "b=2; HttpOnly"]);
    const framing = await fetch(`http://127.0.0.1:${(ours.address() as AddressInfo).port}/?page=team`);
    expect(framing.headers.get("content-length")).toBe(String(Buffer.byteLength(sent.body)));
  });

  it("sends streamed documents, error pages, redirects and HEAD answers as the adapter does", async () => {
    for (const [path, method] of [
      ["/?page=streamed", "GET"],
      ["/?page=missing", "GET"],
      ["/?page=old", "GET"],
      ["/?page=team", "HEAD"],
    ]) {
      expect(await answer(ours, path, method)).toEqual(await answer(adapters, path, method));
    }
    expect((await answer(ours, "/?page=streamed")).body).toBe("<!DOCTYPE html><p>first</p><p>second</p>");
    expect((await answer(ours, "/?page=missing")).status).toBe(404);
    expect((await answer(ours, "/?page=old")).headers).toContainEqual(["location", "/new"]);
    expect((await answer(ours, "/?page=team", "HEAD")).body).toBe("");
  });
});
