import http from "node:http";
import { startServer } from "./support/server";
import { expect, test } from "./support/test";

test("the compiled server started without NODE_ENV serves the production app, with its security policy", async () => {
  const server = await startServer({ NODE_ENV: "" }, 61);
  try {
    const response = await fetch(`${server.baseURL}/login`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(await response.text()).not.toContain("/@vite/client");
  } finally {
    server.stop();
  }
});

/** One GET to the e2e server with `target` as the request line's target (origin or absolute form). */
function rawGet(baseURL: string, target: string): Promise<{ status: number; body: string }> {
  const { hostname, port, host } = new URL(baseURL);
  return new Promise((resolve, reject) => {
    http
      .get({ host: hostname, port, path: target, headers: { host }, agent: false }, (res) => {
        const parts: Buffer[] = [];
        res.on("data", (d: Buffer) => parts.push(d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString() }));
      })
      .on("error", reject);
  });
}

test("a request target in absolute form gets the page and its scripts, as the origin form does", async ({ baseURL }) => {
  const page = await rawGet(baseURL!, `${baseURL}/login`);
  expect(page.status).toBe(200);
  // The files under a mounted path (/assets): Express read the scheme and host off an absolute target
  // once and cut them from the rewritten path, so a script answered a 301 to a wrong address.
  const script = /\/assets\/[^"]+\.js/.exec(page.body)![0];
  const direct = await rawGet(baseURL!, script);
  const absolute = await rawGet(baseURL!, `${baseURL}${script}`);
  expect(direct.status).toBe(200);
  expect(absolute.status).toBe(200);
  expect(absolute.body).toBe(direct.body);
});
