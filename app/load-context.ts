/** What the Express server hands every loader and action (server/index.ts builds it). */
declare module "@remix-run/node" {
  interface AppLoadContext {
    /** Per-request nonce for inline scripts, matching the Content-Security-Policy header. */
    cspNonce: string;
    /** The /api/v1 contract: the embedded platform in-process, or an external one over HTTP. */
    platformFetch: (request: Request) => Promise<Response>;
    /** API examples: the API host is the app host with `app` prefix swapped for `api` (SPEC §2 /chat). */
    hostPrefixes: { app: string; api: string };
    /** The browser's address (Express `req.ip`, one loopback proxy trusted), forwarded to the platform for its rate limits. */
    clientAddress?: string;
  }
}

export {};
