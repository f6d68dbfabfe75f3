import http from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { createRemixRequest } from "@remix-run/express/dist/server.js";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { remixRequest } from "./remix-request";

// A GET reaches Remix without a full WHATWG Request (decision 0087, twelfth pass); loaders must see
// what Remix's Express adapter would have given them.
const seen: { ours?: Request; adapters?: Request } = {};
let held: (() => void) | undefined;
const app = express();
app.set("trust proxy", "loopback");
app.all("*", async (req, res) => {
  const ours = remixRequest(req, res);
  const adapters = createRemixRequest(req, res);
  Object.assign(seen, { ours, adapters });
  if (req.query.hold !== undefined) {
    // Answer only after the client has gone, as a slow loader would.
    await new Promise<void>((resolve) => (held = resolve));
  }
  const body = req.method === "GET" || req.method === "HEAD" ? "" : await ours.text();
  res.json({ body, aborted: ours.signal.aborted });
});
const server = http.createServer(app);
beforeAll(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve)));
afterAll(() => void server.close());
const port = () => (server.address() as AddressInfo).port;

/** What a loader reads of a request. */
const reading = (request: Request) => ({ url: request.url, method: request.method, headers: [...request.headers], aborted: request.signal.aborted });

function send(path: string, headers: Record<string, string>, method = "GET", body?: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port: port(), path, method, headers }, (response) => {
      let text = "";
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, body: text }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

describe("the request a page's loaders get", () => {
  it("has the adapter's url, method and headers, whatever the Host and forwarded headers say", async () => {
    for (const [path, headers] of [
      ["/team", { host: `127.0.0.1:${port()}` }],
      ["/tokens?page=2&q=a%20b", { host: "console.example", cookie: "sid=abc; CH-time-zone=UTC" }],
      ["/usage", { host: "console.example:8443", "x-forwarded-host": "public.example:9443", "x-forwarded-proto": "https" }],
      ["/billing", { host: "console.example:8443", "x-forwarded-host": "public.example" }],
      ["/models/a%2Fb", { host: "localhost:0", "accept-language": "de" }],
    ] as const) {
      for (const method of ["GET", "HEAD"]) {
        await send(path, headers, method);
        expect(reading(seen.ours!)).toEqual(reading(seen.adapters!));
      }
    }
    expect(seen.ours!.url).toBe("http://localhost/models/a%2Fb");
  });

  it("is a Request: body-less, and whatever else is asked of it answered by a full Request", async () => {
    await send("/team?x=1", { host: "console.example", cookie: "sid=abc" });
    const request = seen.ours!;
    expect(request).toBeInstanceOf(Request);
    expect(request.body).toBeNull();
    expect(request.bodyUsed).toBe(false);
    expect(request.cache).toBe("default");
    expect(request.redirect).toBe("follow");
    const copy = request.clone();
    expect(copy).toBeInstanceOf(Request);
    expect(reading(copy)).toEqual(reading(request));
    expect(await request.text()).toBe("");
    // What Remix does with it: a new Request made from its fields.
    const rebuilt = new Request(request.url, { method: request.method, headers: request.headers, signal: request.signal });
    expect(rebuilt.headers.get("cookie")).toBe("sid=abc");
  });

  it("stays a Request once Hono's server has put its own Request in place of the global one", async () => {
    const before = globalThis.Request;
    getRequestListener(() => new Response(null));
    expect(globalThis.Request).not.toBe(before);
    await send("/team", { host: "console.example" });
    expect(seen.ours).toBeInstanceOf(globalThis.Request);
  });

  it("is aborted when the browser goes away before the answer, and not once it was sent", async () => {
    await send("/team", { host: "console.example" });
    const sent = seen.ours!;
    expect(sent.signal.aborted).toBe(false);

    const gone = http.request({ host: "127.0.0.1", port: port(), path: "/team?hold", headers: { host: "console.example" } });
    gone.on("error", () => {});
    gone.end();
    await expect.poll(() => held).toBeDefined();
    const abandoned = seen.ours!;
    const aborted = new Promise((resolve) => abandoned.signal.addEventListener("abort", resolve));
    gone.destroy();
    await aborted;
    expect(abandoned.signal.aborted).toBe(true);
    expect(sent.signal.aborted).toBe(false);
    held!();
  });

  it("of a form post is the adapter's, with its body", async () => {
    const answer = await send("/team", { host: "console.example", "content-type": "application/x-www-form-urlencoded" }, "POST", "intent=invite");
    expect(JSON.parse(answer.body)).toEqual({ body: "intent=invite", aborted: false });
    expect(reading(seen.ours!)).toEqual(reading(seen.adapters!));
  });
});
