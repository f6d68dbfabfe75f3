import type { IncomingMessage, ServerResponse } from "node:http";

/** What @hono/node-server passes as `c.env` when the platform is served by Node (server/index.ts). */
interface NodeBindings {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
}

function nodeBindings(env: unknown): NodeBindings | null {
  const bindings = env as Partial<NodeBindings> | undefined;
  return bindings?.incoming && bindings.outgoing ? (bindings as NodeBindings) : null;
}

/**
 * The JSON body and an abort signal of a request served by Node, read straight from its stream:
 * no WHATWG Request and web stream are built for it (a third of a metered call's own time, decision
 * 0087). Only for a body of declared length not yet read (the platform's body limit has checked that
 * length); otherwise null, and the caller reads `c.req` as usual (in-process calls, chunked bodies).
 * The signal aborts when the client goes away before its answer is written, as the adapter's does.
 */
export async function readNodeJson(env: unknown): Promise<{ body: unknown; signal: AbortSignal } | null> {
  const node = nodeBindings(env);
  if (!node) return null;
  const { incoming, outgoing } = node;
  if (incoming.headers["content-length"] === undefined || incoming.headers["transfer-encoding"] !== undefined) return null;
  if (incoming.readableDidRead || incoming.readableEnded) return null;
  const abort = new AbortController();
  outgoing.once("close", () => {
    if (incoming.errored) abort.abort(incoming.errored.toString());
    else if (!outgoing.writableFinished) abort.abort("Client connection prematurely closed.");
  });
  let body: unknown = null;
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    // Not JSON, or the client went away while sending: the request's validation says what is wrong.
  }
  return { body, signal: abort.signal };
}
