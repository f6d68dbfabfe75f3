/** What the Express server hands every loader and action (server/index.ts builds it). */
declare module "@remix-run/node" {
  interface AppLoadContext {
    /** Per-request nonce for inline scripts, matching the Content-Security-Policy header. */
    cspNonce: string;
    /** The /api/v1 contract: the embedded platform in-process, or an external one over HTTP. */
    platformFetch: (request: PlatformRequest) => Promise<Response>;
    /** API examples: the API host is the app host with `app` prefix swapped for `api` (SPEC §2 /chat). */
    hostPrefixes: { app: string; api: string };
    /** The browser's address (Express `req.ip`, one loopback proxy trusted), forwarded to the platform for its rate limits. */
    clientAddress?: string;
  }
}

/**
 * What the console sends the platform: a WHATWG `Request`, or, for a read, only what a read is made of.
 * Hono reads a request's url, method and headers, and nothing else of a GET (the platform already
 * answers @hono/node-server's requests, which are as light until something else is asked of them); a
 * `Request`, with the AbortSignal each one makes, was about a third of an in-process read's cost
 * (decision 0087, eleventh pass).
 */
export type PlatformRequest = Request | { url: string; method: "GET"; headers: Headers };
