import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "./lib/nonce";

const ABORT_DELAY = 5_000;

export const streamTimeout = ABORT_DELAY;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  // Bots get the whole document at once; browsers get the shell as soon as it is ready.
  const readyEvent = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true;
          const { destination, body } = htmlBody(abort);
          responseHeaders.set("Content-Type", "text/html");
          resolve(new Response(body, { headers: responseHeaders, status: responseStatusCode }));
          pipe(destination);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

/**
 * React writes the document in 2 KB pieces; passed on one by one (a PassThrough, a web stream, then
 * one socket write each) they cost more than the render of a small page (decision 0087). What React
 * writes in one go (the shell, then each resolved boundary) reaches the response as one chunk: writes
 * are corked until the end of the tick.
 */
function htmlBody(abort: () => void): { destination: Writable; body: ReadableStream<Uint8Array> } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  // A closed connection cancels the body: React is stopped, and what it still writes is dropped.
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: () => {
      cancelled = true;
      abort();
    },
  });
  const enqueue = (chunk: Uint8Array) => void (cancelled || controller.enqueue(chunk));
  const uncork = () => destination.uncork();
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      enqueue(chunk);
      callback();
    },
    writev(chunks, callback) {
      enqueue(Buffer.concat(chunks.map((c) => c.chunk as Buffer)));
      callback();
    },
    final(callback) {
      if (!cancelled) controller.close();
      callback();
    },
    destroy(error, callback) {
      if (error && !cancelled) controller.error(error);
      callback(error);
    },
  });
  const write = destination.write.bind(destination);
  destination.write = ((...args: Parameters<Writable["write"]>) => {
    if (!destination.writableCorked) {
      destination.cork();
      process.nextTick(uncork);
    }
    return write(...args);
  }) as Writable["write"];
  return { destination, body };
}
