import express from "express";
import type { AddressInfo } from "node:net";
import http from "node:http";
import { describe, expect, it } from "vitest";
import { consoleOrigins, isLoopbackHost, publicOrigin } from "../platform/http/hosts";
import { loadEnv } from "./env";
import { apiOrigins } from "../app/features/chat/hosts";
import { allowedHosts, hostAllowList } from "./host";

const base = { DATABASE_PATH: "/tmp/host-test/db.sqlite", SESSION_SECRET: "s".repeat(40) };

describe("the console's origins", () => {
  it("defaults APP_ORIGIN to http://localhost:PORT", () => {
    expect(loadEnv({ ...base }).platform.appOrigin).toBe("http://localhost:3000");
    expect(loadEnv({ ...base, PORT: "3100" }).platform.appOrigin).toBe("http://localhost:3100");
    expect(loadEnv({ ...base, APP_ORIGIN: "https://console.example/x" }).platform.appOrigin).toBe("https://console.example");
  });

  it("adds the loopback names with the server's port in development sign-in mode only", () => {
    expect(consoleOrigins({ appOrigin: "http://localhost:3000", port: 3000, oauth: {} })).toEqual([
      "http://localhost:3000",
      "http://127.0.0.1:3000",
      "http://[::1]:3000",
    ]);
    const google = { clientId: "a", clientSecret: "b", authorizationEndpoint: "x", tokenEndpoint: "y", userEndpoint: "z" };
    expect(consoleOrigins({ appOrigin: "https://console.example", port: 3000, oauth: { google } })).toEqual(["https://console.example"]);
    expect(consoleOrigins({ oauth: {} })).toBeUndefined();
  });

  it("takes the request's origin only when it is one of them", () => {
    const config = { appOrigin: "http://localhost:3000", port: 3000, oauth: {} };
    expect(publicOrigin(config, "http://127.0.0.1:3000/api/v1/auth/google")).toBe("http://127.0.0.1:3000");
    expect(publicOrigin(config, "http://evil.example:3000/api/v1/auth/google")).toBe("http://localhost:3000");
    expect(publicOrigin({ oauth: {} }, "http://console.test/x")).toBe("http://console.test");
  });

  it("knows the loopback names", () => {
    for (const host of ["localhost:3000", "127.0.0.1", "[::1]:4000", "LOCALHOST"]) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ["evil.example:3000", "localhost.evil.example", "127.0.0.1.nip.io", "", null, "[::1"]) expect(isLoopbackHost(host)).toBe(false);
  });
});

describe("the host allow-list", () => {
  it("accepts each origin's host, with or without its default port", () => {
    expect([...allowedHosts(["https://console.example", "http://localhost:3000"])].sort()).toEqual([
      "console.example",
      "console.example:443",
      "localhost:3000",
    ]);
  });

  it("answers 421 to any other Host before the handlers", async () => {
    const app = express();
    app.use(hostAllowList(["http://console.test"]));
    app.get("/", (_req, res) => void res.send("ok"));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const port = (server.address() as AddressInfo).port;
    const get = (host: string) =>
      new Promise<number>((resolve) =>
        http.get({ host: "127.0.0.1", port, path: "/", headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        }),
      );
    try {
      expect(await get("console.test")).toBe(200);
      expect(await get("Console.Test:80")).toBe(200);
      expect(await get("evil.example")).toBe(421);
      expect(await get("console.test.evil.example")).toBe(421);
    } finally {
      server.close();
    }
  });

  it("serves the API examples' host for the public API alone", async () => {
    const app = express();
    app.use(hostAllowList(["https://app.example.test"], apiOrigins(["https://app.example.test"], "app.", "api.")));
    app.all("*", (_req, res) => void res.send("ok"));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const port = (server.address() as AddressInfo).port;
    const get = (host: string, path: string) =>
      new Promise<number>((resolve) =>
        http.get({ host: "127.0.0.1", port, path, headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        }),
      );
    try {
      expect(await get("api.example.test", "/openai/v1/models")).toBe(200);
      expect(await get("app.example.test", "/openai/v1/models")).toBe(200);
      expect(await get("api.example.test", "/team")).toBe(421);
      expect(await get("api.example.test", "/api/v1/auth/session")).toBe(421);
      expect(await get("evil.example", "/openai/v1/models")).toBe(421);
    } finally {
      server.close();
    }
  });
});
