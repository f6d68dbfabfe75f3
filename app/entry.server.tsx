import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { prerenderSidebarNav } from "./components/layout/Sidebar";
import { NonceProvider } from "./lib/nonce";
import { renderWholeDocument, wholeDocumentResponse } from "./whole-document.server";

const ABORT_DELAY = 5_000;

export const streamTimeout = ABORT_DELAY;

/** An error a loader, an action or the render threw: logged with the request it served (a cancelled request's are not errors). */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  // Remix's own answers to the client's request (a POST to a page without an action: 405, a page that
  // is not there: 404) are answered as such, not errors: a scanner's requests filled the log with stacks.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  const path = new URL(request.url).pathname;
  console.error(`Unhandled error in ${request.method} ${path} (request ${request.headers.get("x-request-id") ?? "-"}):`, error);
}

prerenderSidebarNav(renderToString);

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  const app = (
    <NonceProvider value={nonce}>
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
    </NonceProvider>
  );
  responseHeaders.set("Content-Type", "text/html");
  if (!hasDeferredData(remixContext)) {
    const html = await renderWholeDocument(app, remixContext);
    if (html !== undefined) return wholeDocumentResponse(html, { headers: responseHeaders, status: responseStatusCode });
  }
  // Bots get the whole document at once; browsers get the shell as soon as it is ready.
  const readyEvent = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(app, {
      nonce,
      [readyEvent]() {
        shellRendered = true;
        const { destination, body } = htmlBody(abort);
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
    });
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

/**
 * Whether a loader handed the page a promise to stream in (an `<Await>`, as /models does). Only those
 * pages need React's streaming renderer; the others are rendered whole (decision 0087, fifth pass).
 */
function hasDeferredData(context: EntryContext): boolean {
  for (const data of Object.values(context.staticHandlerContext.loaderData)) {
    if (data === null || typeof data !== "object") continue;
    for (const value of Object.values(data)) if (value instanceof Promise) return true;
  }
  return false;
}
