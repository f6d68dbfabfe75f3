import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getRequestListener } from "@hono/node-server";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { apiOrigins } from "../app/features/chat/hosts";
import type { PlatformRequest } from "../app/load-context";
import { newInProcessBindings } from "../platform/auth/shared-sessions";
import { isDevSignin } from "../platform/config";
import { DatabaseStartError } from "../platform/db";
import { ModelsFileError } from "../platform/models/service";
import { consoleOrigins } from "../platform/http/hosts";
import { isAllowedOrigin, MUTATING_METHODS } from "../platform/http/origin";
import { ConfigurationError, listenHosts, loadEnv, startupLine, startupWarnings } from "./env";
import { consoleRequests, toOriginForm } from "./console-requests";
import { frontDoor } from "./front-door";
import { pageHeaders } from "./page-headers";
import { remixHandler } from "./remix-handler";
import { startPlatform } from "./platform";
import type { MountedPlatform } from "./platform";
import { oneLineLogs } from "./request-id";
import { createStreamTracker, handleShutdown } from "./shutdown";

/** The project folder (build/, public/): the nearest package.json above this module, run from server/ or compiled into build/app/. */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}
const root = projectRoot(path.dirname(fileURLToPath(import.meta.url)));

function isStartupRefusal(error: unknown): error is Error {
  return error instanceof DatabaseStartError || error instanceof ModelsFileError;
}

// The compiled server (build/app/server.js) is the production one: started without NODE_ENV, it ran
// Vite's development server from the sources, which a pruned install does not even have.
declare const __COMPILED_SERVER__: boolean | undefined;
if (typeof __COMPILED_SERVER__ !== "undefined" && !process.env.NODE_ENV) process.env.NODE_ENV = "production";

let env;
try {
  env = loadEnv();
} catch (error) {
  // Printed before oneLineLogs() is set up (production is decided by the very settings that failed):
  // still one line, so a log collector keeps it as one entry. Anything but a configuration refusal
  // is a bug, and keeps its stack.
  const text = error instanceof ConfigurationError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
  console.error(text.replace(/\s*\n\s*/g, " ⏎ "));
  process.exit(1);
}
const production = env.NODE_ENV === "production";
if (production) oneLineLogs();
for (const warning of startupWarnings(env)) console.warn(`Warning: ${warning}`);
const devSignin = !env.PLATFORM_URL && isDevSignin(env.platform);
let hosts: string[];
try {
  hosts = listenHosts(env, devSignin);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

// The console's own origins: APP_ORIGIN, plus loopback names in development sign-in mode (decision 0083).
const origins = devSignin ? consoleOrigins(env.platform)! : [env.platform.appOrigin!];
// The console's cookies (app/cookies.server.ts) are signed with the session secret, Secure under https.
process.env.SESSION_SECRET = env.sessionSecret;
process.env.APP_ORIGIN = env.platform.appOrigin;

let platform: MountedPlatform;
try {
  platform = await startPlatform(env);
} catch (error) {
  // A database that can't be reached or opened, or a bad MODELS_FILE: the operator's to fix, said in
  // one line. Anything else keeps its stack.
  console.error(isStartupRefusal(error) ? error.message : error);
  process.exit(1);
}
// Streamed replies pass through the tracker, so a shutdown can end (and meter) those still running.
const streams = createStreamTracker();
// The console's reads come as PlatformRequests (app/load-context.ts): Hono reads only what they have.
const platformFetch = async (request: Request | PlatformRequest, bindings?: unknown) => streams.track(await platform.fetch(request as Request, bindings));
const servers: http.Server[] = [];
const shutdown = handleShutdown({ servers, streams, stopRequests: platform.stopRequests, close: platform.close, timeoutMs: env.SHUTDOWN_TIMEOUT_MS });

const MALFORMED_ADDRESS_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Address not valid</title>' +
  '<p>This address is not valid: part of it is not percent-encoded correctly. <a href="/">Go to the console</a></p></html>';

const app = express();
app.disable("x-powered-by");
// Who the client is (per-address limits, the audit log, the scheme) comes from the proxies TRUST_PROXY
// names: loopback unless the operator says otherwise (decision 0095).
app.set("trust proxy", env.TRUST_PROXY);

app.use(
  frontDoor({
    draining: shutdown.draining,
    ready: platform.ready,
    origins,
    apiOrigins: apiOrigins(origins, env.APP_HOST_PREFIX, env.API_HOST_PREFIX),
    logRequests: env.LOG_REQUESTS,
    production,
  }),
);

// The platform answers everything under its prefixes itself (no next()).
const platformListener = getRequestListener(platformFetch);
// The public API serves programs, not pages: no CSP nonce, page headers or compression on the path
// every metered call takes (decision 0087); its answers are small JSON or event streams.
// Paths as regular expressions without groups: a "*" parameter is decoded by Express, and a malformed
// percent-escape (/team/%ZZ) failed there with Express's HTML 400 and a logged stack naming the path,
// an invite code included. The platform and Remix read the path themselves (decision 0139).
app.all(/^\/openai\/v1\//i, (req, res) => {
  res.setHeader("X-Content-Type-Options", "nosniff");
  void platformListener(req, res);
});

// Chat replies are server-sent events: compressing them would buffer the whole reply.
app.use(
  compression({
    filter: (req, res) => !String(res.getHeader("Content-Type") ?? "").includes("text/event-stream") && compression.filter(req, res),
  }),
);
app.get("/favicon.ico", (_req, res) => res.redirect(301, "/favicon.svg"));

// Helmet's headers with a fresh CSP nonce per request, worked out once (decision 0087).
app.use(
  pageHeaders({
    // Vite's development client injects inline scripts and a websocket; the policy guards production.
    contentSecurityPolicy: production
      ? {
          directives: {
            "default-src": ["'self'"],
            "script-src": ["'self'", (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`, "https://js.stripe.com"],
            "frame-src": ["'self'", "https://js.stripe.com", "https://hooks.stripe.com"],
            "connect-src": ["'self'", "https://api.stripe.com"],
            "img-src": ["'self'", "data:", "blob:", "https://*.stripe.com"],
            "media-src": ["'self'", "data:", "blob:"],
            "style-src": ["'self'", "'unsafe-inline'"],
            "form-action": ["'self'"],
            "upgrade-insecure-requests": null,
          },
        }
      : false,
    crossOriginEmbedderPolicy: false,
    // helmet's default (no-referrer) makes browsers send `Origin: null` with form posts, which the
    // origin rule would then refuse.
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    strictTransportSecurity: production && env.APP_ORIGIN?.startsWith("https:") ? undefined : false,
  }),
);

app.all(/^\/api\/v1\//i, (req, res) => void platformListener(req, res));

// The pages and files below take GET, HEAD and POST, and no `_data` request (console-requests.ts).
app.use(consoleRequests());

// No page's address holds a malformed percent-escape (/team/%ZZ): answered here, as Vite's middleware
// logged a stack and Remix's router a warning for each such request, a log any client could flood.
app.use((req, res, next) => {
  try {
    decodeURIComponent(req.path);
  } catch {
    res.status(400).type("html").send(MALFORMED_ADDRESS_PAGE);
    return;
  }
  next();
});

let build: ServerBuild | (() => Promise<ServerBuild>);
if (production) {
  app.use("/assets", express.static(path.join(root, "build/client/assets"), { immutable: true, maxAge: "1y" }));
  const files = express.static(path.join(root, "build/client"), { maxAge: "1h" });
  // Every file there has an extension: a page's path is not looked up on disk first (decision 0087).
  app.use((req, res, next) => (path.extname(req.path) ? files(req, res, next) : next()));
  build = (await import(path.join(root, "build/server/index.js"))) as ServerBuild;
} else {
  const vite = await import("vite").then((v) => v.createServer({ server: { middlewareMode: true } }));
  app.use(vite.middlewares);
  build = () => vite.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>;
}

// Console actions obey the same origin rule as the platform (DESIGN §3).
app.use((req, res, next) => {
  if (!MUTATING_METHODS.has(req.method)) return next();
  const url = `${req.protocol}://${req.get("host")}${req.originalUrl}`;
  const ok = isAllowedOrigin({ origin: req.get("origin"), secFetchSite: req.get("sec-fetch-site") }, url, origins);
  if (ok) return next();
  res.status(403).type("text/plain").send("Cross-origin request refused");
});

app.all(
  /^\//,
  remixHandler({
    build,
    mode: production ? "production" : "development",
    getLoadContext: (req, res) => {
      // The platform looks a page's session up once for all of the page's calls (shared-sessions.ts).
      const bindings = newInProcessBindings();
      return {
        cspNonce: res.locals.cspNonce as string,
        platformFetch: (request: PlatformRequest) => platformFetch(request, bindings),
        hostPrefixes: { app: env.APP_HOST_PREFIX, api: env.API_HOST_PREFIX },
        clientAddress: req.ip,
      };
    },
  }),
);

/** How long an idle keep-alive connection stays open. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
const listening: Promise<string | null>[] = [];
for (const host of hosts) {
  const server = http.createServer((req, res) => {
    toOriginForm(req);
    app(req, res);
  });
  // Longer than a load balancer's or a reverse proxy's idle keep-alive (AWS's and nginx's 60 s): with
  // Node's 5 s, this server closed connections the proxy was about to reuse, and the proxy answered 502.
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  listening.push(
    new Promise((resolve) => {
      server.on("error", (error: NodeJS.ErrnoException) => {
        // Machines without IPv6 have no ::1; the IPv4 loopback is enough there.
        if (host === "::1" && (error.code === "EADDRNOTAVAIL" || error.code === "EAFNOSUPPORT")) return resolve(null);
        console.error(`Cannot listen on ${host}:${env.PORT}: ${error.message}`);
        process.exit(1);
      });
      server.listen(env.PORT, host, () => resolve(host));
    }),
  );
  servers.push(server);
}
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => void shutdown.shutdown(signal));
const addresses = (await Promise.all(listening)).filter((host): host is string => host !== null);
console.log(startupLine(env, addresses, devSignin));
